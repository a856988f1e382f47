#pragma once
// Synthetic kernel streams of seed-systems.md §a.5 and N steps × L layers traces.
#include <string>
#include <vector>

#include "analyses/cycles/cycle_options.h"

namespace cycles_test {

// uplifter's pipeline exactly (`--mode uplifter`): the tests of its behaviour use it.
inline sollens::CycleOptions uplifter_options() {
  sollens::CycleOptions o;
  o.structure = false;
  return o;
}

struct Stream {
  std::vector<std::string> names;
  std::vector<double> dur;
  void add(const std::string& name, double d) {
    names.push_back(name);
    dur.push_back(d);
  }
};

// embed_prefill (5), L × [prefill_k0 … prefill_k11] (10 each), lm_head_prefill (20).
inline void prefill_request(Stream& s, int layers) {
  s.add("embed_prefill", 5);
  for (int l = 0; l < layers; ++l)
    for (int k = 0; k < 12; ++k) s.add("prefill_k" + std::to_string(k), 10);
  s.add("lm_head_prefill", 20);
}

// embed_decode (2), L × [decode_k0 … decode_k7] (3 each), lm_head_decode (8), sampler (4).
inline void decode_step(Stream& s, int layers) {
  s.add("embed_decode", 2);
  for (int l = 0; l < layers; ++l)
    for (int k = 0; k < 8; ++k) s.add("decode_k" + std::to_string(k), 3);
  s.add("lm_head_decode", 8);
  s.add("sampler", 4);
}

inline Stream llm_stream(int prefills, int decodes, int layers = 4) {
  Stream s;
  for (int i = 0; i < prefills; ++i) prefill_request(s, layers);
  for (int i = 0; i < decodes; ++i) decode_step(s, layers);
  return s;
}

}  // namespace cycles_test
