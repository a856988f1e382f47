#include "analyses/perf/iteration_annotation.h"

#include <map>
#include <regex>
#include <string>
#include <vector>

namespace sollens::perf {

namespace {

// What TraceLens's IterationAnnotation keeps of a matched annotation.
struct Parsed {
  bool sglang_native = false;
  bool has_sqsk = false;
  int64_t context_requests = 0, generation_requests = 0, context_sum = 0;
  int64_t c_sq = 0, c_sk = 0, c_sqsq = 0, c_sqsk = 0;
  int64_t g_sq = 0, g_sk = 0, g_sqsq = 0, g_sqsk = 0;
};

// Python's int() of a token, 0 where it raises (TraceLens's _safe_int).
int64_t safe_int(std::string_view t) {
  while (!t.empty() && t.front() == ' ') t.remove_prefix(1);
  while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
  bool negative = false;
  if (!t.empty() && (t.front() == '+' || t.front() == '-')) {
    negative = t.front() == '-';
    t.remove_prefix(1);
  }
  if (t.empty()) return 0;
  int64_t v = 0;
  for (char c : t) {
    if (c < '0' || c > '9') return 0;
    v = v * 10 + (c - '0');
  }
  return negative ? -v : v;
}

// The first run of digits (TraceLens's _first_int: "117/128" → 117).
int64_t first_int(std::string_view t) {
  const size_t b = t.find_first_of("0123456789");
  if (b == std::string_view::npos) return 0;
  const size_t e = t.find_first_not_of("0123456789", b);
  return safe_int(t.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b));
}

bool match_prefix(const std::string& s, const std::regex& re, std::smatch* m = nullptr) {
  std::smatch local;
  return std::regex_search(s, m ? *m : local, re, std::regex_constants::match_continuous);
}

// Parentheses dropped and every run of s/q/k letters turned into a separator, then
// split on '_' (the vLLM detailed layout: p[3] context requests, p[5..8] c_sq, c_sk,
// c_sqsq, c_sqsk, p[11] generation requests, p[13..16] the g_ aggregates).
std::vector<std::string> vllm_tokens(const std::string& name) {
  std::string flat;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i] == '(' || name[i] == ')' ? '_' : name[i];
    if (c == 's' || c == 'q' || c == 'k') {
      if (flat.empty() || !(name[i - 1] == 's' || name[i - 1] == 'q' || name[i - 1] == 'k')) flat += '_';
      continue;
    }
    flat += c;
  }
  std::vector<std::string> parts(1);
  for (char c : flat) {
    if (c == '_') parts.emplace_back();
    else parts.back() += c;
  }
  return parts;
}

std::optional<Parsed> parse_vllm(const std::string& name) {
  static const std::regex detailed(
      R"(execute_\d+_context_\d+\(sq\d+sk\d+sqsq\d+sqsk\d+\)_generation_\d+\(sq\d+sk\d+sqsq\d+sqsk\d+\))");
  static const std::regex native(R"(execute_context_\d+\(\d+\)_generation_\d+\(\d+\))");
  if (match_prefix(name, detailed)) {
    const auto p = vllm_tokens(name);
    Parsed a;
    a.context_requests = safe_int(p[3]);
    a.c_sq = safe_int(p[5]), a.c_sk = safe_int(p[6]), a.c_sqsq = safe_int(p[7]), a.c_sqsk = safe_int(p[8]);
    a.generation_requests = safe_int(p[11]);
    a.g_sq = safe_int(p[13]), a.g_sk = safe_int(p[14]), a.g_sqsq = safe_int(p[15]), a.g_sqsk = safe_int(p[16]);
    a.has_sqsk = true;
    return a;
  }
  if (match_prefix(name, native)) return Parsed{};  // request counts only: no aggregates
  return std::nullopt;
}

// key=digits pairs of a bracketed body, later keys overriding earlier ones.
std::map<std::string, std::string> key_values(const std::string& body, const std::regex& pair) {
  std::map<std::string, std::string> kv;
  for (auto it = std::sregex_iterator(body.begin(), body.end(), pair); it != std::sregex_iterator(); ++it)
    kv[(*it)[1].str()] = (*it)[2].str();
  return kv;
}

int64_t value_of(const std::map<std::string, std::string>& kv, const char* key) {
  const auto it = kv.find(key);
  return it == kv.end() ? 0 : safe_int(it->second);
}

std::optional<Parsed> parse_sglang(const std::string& name) {
  static const std::regex detailed(R"(step\[(?:EXTEND|DECODE|MIXED)\b[^\]]*sqsq=\d+[^\]]*\])");
  static const std::regex native(R"(step\[(?:EXTEND|DECODE|MIXED)\b.*\])");
  static const std::regex native_fields(R"(step\[(\w+)\s+bs=(\d+)(?:\s+toks=(\d+))?\])");
  static const std::regex pair(R"((\w+)=(\d+))");
  if (match_prefix(name, detailed)) {
    const size_t open = name.find('['), close = name.rfind(']');
    const auto kv = key_values(name.substr(open + 1, close - open - 1), pair);
    Parsed a;
    a.c_sq = value_of(kv, "c_sq"), a.c_sk = value_of(kv, "c_sk");
    a.c_sqsq = value_of(kv, "c_sqsq"), a.c_sqsk = value_of(kv, "c_sqsk");
    a.g_sq = value_of(kv, "g_sq"), a.g_sk = value_of(kv, "g_sk");
    a.g_sqsq = value_of(kv, "g_sqsq"), a.g_sqsk = value_of(kv, "g_sqsk");
    a.has_sqsk = true;  // the request counts the mode selects do not enter the statistics
    return a;
  }
  std::smatch m;
  if (match_prefix(name, native) && match_prefix(name, native_fields, &m)) {
    Parsed a;
    a.sglang_native = true;
    const int64_t bs = safe_int(m[2].str());
    if (m[1].str() == "DECODE") {
      a.generation_requests = a.g_sq = bs;
    } else {  // EXTEND / MIXED: a prefill of toks tokens over bs requests
      a.context_requests = bs;
      a.context_sum = a.c_sq = m[3].matched ? safe_int(m[3].str()) : 0;
    }
    return a;
  }
  return std::nullopt;
}

std::optional<Parsed> parse_atom(const std::string& name) {
  static const std::regex native(R"(^(prefill|decode)\[(.*)\])");
  static const std::regex pair(R"((\w+)=(\[[^\]]*\](?:\.\.\.\+\d+)?|\S+))");
  std::smatch m;
  if (!match_prefix(name, native, &m)) return std::nullopt;
  const auto kv = key_values(m[2].str(), pair);
  const int64_t bs = kv.contains("bs") ? first_int(kv.at("bs")) : 0;
  const int64_t tokens = value_of(kv, "tok"), sk = value_of(kv, "sk");
  const int64_t sqsq = value_of(kv, "sqsq"), sqsk = value_of(kv, "sqsk");
  Parsed a;
  if (m[1].str() == "prefill") {
    a.context_requests = bs, a.context_sum = tokens;
    a.c_sq = tokens, a.c_sk = sk, a.c_sqsq = sqsq, a.c_sqsk = sqsk;
  } else {
    a.generation_requests = bs;
    a.g_sq = tokens, a.g_sk = sk, a.g_sqsq = sqsq, a.g_sqsk = sqsk;
  }
  a.has_sqsk = kv.contains("sqsq") && kv.contains("sqsk");
  return a;
}

std::optional<Parsed> parse(std::string_view annotation) {
  const std::string name(annotation);
  if (auto a = parse_vllm(name)) return a;
  if (auto a = parse_sglang(name)) return a;
  return parse_atom(name);
}

}  // namespace

bool is_iteration_annotation(std::string_view name) { return parse(name).has_value(); }

std::optional<ChunkStats> chunk_stats(std::string_view annotation) {
  const auto a = parse(annotation);
  if (!a) return std::nullopt;
  ChunkStats s;
  if (a->has_sqsk) {
    s.c_sq = a->c_sq, s.c_sk = a->c_sk;
    s.c_sqsq = static_cast<double>(a->c_sqsq), s.c_sqsk = static_cast<double>(a->c_sqsk);
    s.g_sq = a->g_sq, s.g_sk = a->g_sk, s.g_sqsq = a->g_sqsq, s.g_sqsk = a->g_sqsk;
    return s;
  }
  if (!a->sglang_native) return std::nullopt;
  if (a->generation_requests && !a->context_requests) {
    s.g_sq = a->g_sq;
    s.kv_unknown = true;
    return s;
  }
  const int64_t toks = a->context_sum, bs = a->context_requests;
  if (toks <= 0 || bs <= 0) return std::nullopt;
  // Equal-length requests, causal: Σsq² = Σsq·sk = toks²/bs (a true division).
  const double causal = static_cast<double>(toks) * static_cast<double>(toks) / static_cast<double>(bs);
  s.c_sq = s.c_sk = toks;
  s.c_sqsq = s.c_sqsk = causal;
  s.c_products_are_float = true;
  return s;
}

}  // namespace sollens::perf
