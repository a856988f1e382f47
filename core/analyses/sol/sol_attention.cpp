#include "analyses/sol/sol_attention.h"

#include <algorithm>
#include <cstdlib>
#include <optional>

#include "analyses/perf/perf_model.h"

namespace sollens {

namespace {

using perf::at;

// How q, k and v are laid out: the _scaled_dot_product_* composites and the cuDNN ops
// take [B, H, S, D]; the flash and memory-efficient leaves [B, S, H, D] (varlen: one
// packed [total, H, D], or [1, total, H, D] for the memory-efficient one).
enum class Layout : uint8_t { kBHSD, kBSHD };

// Which causal mask: PyTorch's is_causal is aligned top-left; the flash kernels align it
// bottom-right when S_q != S_kv; the memory-efficient leaves say which (custom_mask_type
// 1 top-left, 2 bottom-right).
enum class Align : uint8_t { kTopLeft, kBottomRight, kFromMaskType };

struct AttentionSpec {
  std::string_view name;
  bool backward;
  size_t q;        // q, k, v at q, q + 1, q + 2 (Input Dims)
  Layout layout;
  int causal;      // Concrete Inputs index of is_causal or custom_mask_type
  Align align;
  int cu_seqlens;  // Input Dims index of cu_seqlens_q (cu_seqlens_k next); -1: none
  int max_seqlen;  // Concrete Inputs index of max_seqlen_q (max_seqlen_k next); -1: none
  bool launcher_only;
};

constexpr Layout BHSD = Layout::kBHSD, BSHD = Layout::kBSHD;
constexpr Align TL = Align::kTopLeft, BR = Align::kBottomRight, MASK = Align::kFromMaskType;

// Argument positions from the op schemas (pytorch native_functions.yaml).
constexpr AttentionSpec kSpecs[] = {
    {"aten::scaled_dot_product_attention", false, 0, BHSD, 5, TL, -1, -1, true},
    {"aten::_scaled_dot_product_flash_attention", false, 0, BHSD, 4, TL, -1, -1, false},
    {"aten::_scaled_dot_product_flash_attention_backward", true, 1, BHSD, 11, TL, -1, -1, false},
    {"aten::_scaled_dot_product_efficient_attention", false, 0, BHSD, 6, TL, -1, -1, false},
    {"aten::_scaled_dot_product_efficient_attention_backward", true, 1, BHSD, 11, TL, -1, -1, false},
    {"aten::_scaled_dot_product_cudnn_attention", false, 0, BHSD, 6, TL, -1, -1, false},
    {"aten::_scaled_dot_product_cudnn_attention_backward", true, 1, BHSD, 14, TL, -1, -1, false},
    {"aten::_scaled_dot_product_fused_attention_overrideable", false, 0, BHSD, 5, TL, -1, -1, false},
    {"aten::_scaled_dot_product_fused_attention_overrideable_backward", true, 1, BHSD, 13, TL, -1, -1, false},
    {"aten::_flash_attention_forward", false, 0, BSHD, 8, BR, 3, 5, false},
    {"aten::_flash_attention_backward", true, 1, BSHD, 11, BR, 6, 8, false},
    {"aten::_efficient_attention_forward", false, 0, BSHD, 9, MASK, 4, 6, false},
    {"aten::_efficient_attention_backward", true, 1, BSHD, 14, MASK, 6, 8, false},
    {"aten::_cudnn_attention_forward", false, 0, BHSD, 10, TL, 4, 6, false},
    {"aten::_cudnn_attention_backward", true, 1, BHSD, 14, TL, 9, 11, false},
};

const AttentionSpec* spec_of(std::string_view name) {
  for (const AttentionSpec& s : kSpecs)
    if (s.name == name) return &s;
  return nullptr;
}

// nullopt: not a bool the trace could have written.
std::optional<bool> concrete_bool(const PyValue& v) {
  if (v.kind == PyValue::Kind::kBool) return v.b;
  if (v.kind != PyValue::Kind::kStr) return std::nullopt;
  if (v.s == "True" || v.s == "true") return true;
  if (v.s == "False" || v.s == "false") return false;
  return std::nullopt;
}

// Query i sees keys j ≤ i + offset: offset 0 top-left, S_kv − S_q bottom-right.
double causal_pairs(int64_t seq_q, int64_t seq_kv, bool bottom_right) {
  const int64_t offset = bottom_right ? seq_kv - seq_q : 0;
  double pairs = 0;
  for (int64_t i = 0; i < seq_q; ++i) pairs += static_cast<double>(std::clamp<int64_t>(i + offset + 1, 0, seq_kv));
  return pairs;
}

// [B, S, H, D] or [B, H, S, D] (varlen: [total, H, D]) → batch, heads, seq, dim.
struct Dims4 {
  int64_t b, h, s, d;
};
std::optional<Dims4> read_dims(const std::vector<int64_t>& t, Layout layout) {
  if (t.size() == 3) return Dims4{1, t[1], t[0], t[2]};
  if (t.size() != 4) return std::nullopt;
  if (layout == Layout::kBSHD) return Dims4{t[0], t[2], t[1], t[3]};
  return Dims4{t[0], t[1], t[2], t[3]};
}

// Varlen: n sequences in `total` tokens, the longest `longest` (0: unknown). Σ Lq·Lkv is
// at least the longest pair plus the others of equal length, which is what is counted.
double varlen_pairs(int64_t n, int64_t total_q, int64_t total_kv, int64_t longest_q, int64_t longest_kv) {
  if (n <= 0) return 0;
  if (longest_q <= 0 || longest_kv <= 0 || n == 1)
    return static_cast<double>(total_q) * static_cast<double>(total_kv) / static_cast<double>(n);
  return static_cast<double>(longest_q) * static_cast<double>(longest_kv) +
         static_cast<double>(total_q - longest_q) * static_cast<double>(total_kv - longest_kv) /
             static_cast<double>(n - 1);
}

AttentionWork attention_failed(std::string why) {
  AttentionWork w;
  w.why_not = std::move(why);
  return w;
}

// Reads the mask: causal or not, and its alignment.
bool read_mask(const AttentionSpec& spec, const PyValue& concrete, AttentionWork& w, bool& bottom_right) {
  const PyValue& v = at(concrete, static_cast<size_t>(spec.causal));
  bottom_right = spec.align == Align::kBottomRight;
  if (spec.align != Align::kFromMaskType) {
    const auto causal = concrete_bool(v);
    if (!causal) return false;
    w.causal = *causal;
    return true;
  }
  const auto type = int_value(v);
  if (!type || *type < 0 || *type > 2) return false;
  w.causal = *type != 0;
  bottom_right = *type == 2;
  return true;
}

std::string note_of(const AttentionWork& w, bool varlen_longest_known) {
  std::string note;
  if (w.causal) note = "causal: MACs of the unmasked (query, key) pairs only, about half";
  if (w.shape.sequences > 0) {
    if (!note.empty()) note += "; ";
    note += "varlen: " + std::to_string(w.shape.sequences) + " sequences, counted as " +
            (varlen_longest_known ? "the longest and the rest of equal length" : "of equal length") +
            " (a lower bound)";
  }
  if (w.backward) {
    if (!note.empty()) note += "; ";
    note += "backward: 5 matmuls (QK^T recomputed, dP, dV, dQ, dK), 2.5x the forward MACs when d_qk = d_v";
  }
  return note;
}

}  // namespace

bool is_sol_attention_op(std::string_view name, bool launcher) {
  const AttentionSpec* spec = spec_of(name);
  return spec && (launcher || !spec->launcher_only);
}

AttentionWork attention_work(std::string_view name, const perf::EventArgs& args) {
  const AttentionSpec* spec = spec_of(name);
  if (!spec) return attention_failed("not an attention op");
  const auto q = int_list(at(args.dims, spec->q)), k = int_list(at(args.dims, spec->q + 1)),
             v = int_list(at(args.dims, spec->q + 2));
  if (!q || !k || !v) return attention_failed("attention q/k/v shapes not recorded");
  const auto Q = read_dims(*q, spec->layout), K = read_dims(*k, spec->layout), V = read_dims(*v, spec->layout);
  if (!Q || !K || !V || Q->b != K->b || K->b != V->b || K->s != V->s || Q->d != K->d || K->h != V->h ||
      K->h <= 0 || Q->h % K->h != 0)
    return attention_failed("attention q/k/v shapes do not match");

  AttentionWork w;
  w.backward = spec->backward;
  bool bottom_right = false;
  if (!read_mask(*spec, args.concrete, w, bottom_right)) return attention_failed("attention causal flag not recorded");
  w.shape = {Q->b, Q->h, K->h, Q->s, K->s, Q->d, V->d, 0};

  const auto cu = spec->cu_seqlens < 0 ? std::nullopt : int_list(at(args.dims, static_cast<size_t>(spec->cu_seqlens)));
  const bool varlen = cu && cu->size() == 1 && (*cu)[0] >= 2;
  bool longest_known = false;
  if (varlen) {
    if (w.shape.batch != 1) return attention_failed("varlen attention with a batch dimension");
    w.shape.sequences = (*cu)[0] - 1;
    const size_t mx = static_cast<size_t>(spec->max_seqlen);
    const int64_t longest_q = int_value(at(args.concrete, mx)).value_or(0);
    const int64_t longest_kv = int_value(at(args.concrete, mx + 1)).value_or(0);
    longest_known = longest_q > 0 && longest_kv > 0;
    w.pairs = varlen_pairs(w.shape.sequences, w.shape.seq_q, w.shape.seq_kv, longest_q, longest_kv);
    if (w.causal) w.pairs /= 2;
  } else {
    w.pairs = w.causal ? causal_pairs(w.shape.seq_q, w.shape.seq_kv, bottom_right)
                       : static_cast<double>(w.shape.seq_q) * static_cast<double>(w.shape.seq_kv);
  }

  const auto bpe = perf::bytes_per_element(at(args.types, spec->q));
  if (!bpe) return attention_failed("attention dtype not sized");
  const double heads = static_cast<double>(w.shape.batch * w.shape.heads_q);
  const double dqk = static_cast<double>(w.shape.d_qk), dv = static_cast<double>(w.shape.d_v);
  w.macs = heads * w.pairs * (w.backward ? 3 * dqk + 2 * dv : dqk + dv);
  w.flops = 2 * w.macs;
  // Tokens of q (and the output), of k and v.
  const double tokens_q = static_cast<double>(w.shape.batch * w.shape.seq_q);
  const double tokens_kv = static_cast<double>(w.shape.batch * w.shape.seq_kv);
  const double q_and_out = tokens_q * static_cast<double>(w.shape.heads_q) * (dqk + dv);
  const double k_and_v = tokens_kv * static_cast<double>(w.shape.heads_kv) * (dqk + dv);
  // Backward reads q, k, v, out and dout and writes dq, dk, dv: each tensor twice over.
  w.bytes = static_cast<double>(*bpe) * (q_and_out + k_and_v) * (w.backward ? 2 : 1);

  perf::ModelResult precision;
  precision.maf_type = "matrix";
  precision.precision_dtype = at(args.types, spec->q);
  w.compute_spec = perf::compute_spec(precision);
  w.note = note_of(w, longest_known);
  w.ok = true;
  return w;
}

SolOpFinder::SolOpFinder(const EventStore& store, const TraceTree& tree, const ModeledOps& modeled)
    : store_(store), tree_(tree), modeled_(modeled) {}

bool SolOpFinder::is_attention(uint32_t event, bool launcher) {
  if (store_.category[event] != Category::kCpuOp) return false;
  const StrId name = store_.name[event];
  if (name >= attention_name_.size()) attention_name_.resize(name + 1024, -1);
  int8_t& known = attention_name_[name];
  if (known < 0) {
    const AttentionSpec* spec = spec_of(store_.name_of(event));
    known = !spec ? 0 : spec->launcher_only ? 2 : 1;
  }
  return known == 1 || (known == 2 && launcher);
}

int32_t SolOpFinder::op_of_launcher(uint32_t launcher) {
  int32_t attention = -1;
  for (int32_t e = static_cast<int32_t>(launcher); e != kNoParent; e = tree_.parent[static_cast<size_t>(e)]) {
    const auto u = static_cast<uint32_t>(e);
    if (is_attention(u, u == launcher)) {
      attention = e;
      continue;
    }
    if (modeled_.eval_of_event[u] >= 0) return attention >= 0 ? attention : e;
  }
  return attention;
}

void estimate_attention_op(SolOp& op, const AttentionWork& work, const DeviceSpec* device,
                           const SolOptions& options) {
  if (!work.ok) {
    op.no_estimate = work.why_not;
    return;
  }
  op.compute_spec = work.compute_spec;
  op.flops = work.flops;
  op.bytes = work.bytes;
  op.note = work.note;
  if (!device) {
    op.no_estimate = "no GPU with known peaks";
    return;
  }
  op.roofline = roofline_estimate(op.flops, op.bytes, op.compute_spec, *device, options.efficiency_factor);
  op.estimated = op.roofline.ok;
  if (!op.estimated) op.no_estimate = op.roofline.why_not;
}

void estimate_attention_op(SolOp& op, const ModeledOps& modeled, const DeviceSpec* device,
                           const SolOptions& options) {
  estimate_attention_op(op, attention_work(op.function, modeled.args[modeled.args.intern(op.event)].args), device,
                        options);
}

}  // namespace sollens
