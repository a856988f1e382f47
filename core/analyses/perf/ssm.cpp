// State-space-model ops (tracelens-semantics.md §6.8): DaoAILab causal_conv1d and the
// fused Mamba-2 SSD kernel (MambaSplitConv1dScanCombinedFn). Both count as matrix work
// at the precision of Input type[0]; bytes per element default to 2 where the dtype
// is unknown.
#include "analyses/perf/models.h"
#include "base/python_literal.h"

namespace sollens::perf {

namespace {

int64_t bpe_or(const PyValue& dtype, int64_t fallback) {
  if (dtype.kind != PyValue::Kind::kStr || dtype.s.empty()) return fallback;
  return bytes_per_element(dtype).value_or(fallback);
}

// int(Concrete[i]) when present and non-empty, else the default; nullopt when int() raises.
std::optional<int64_t> concrete_int(const PyValue& c, size_t i, int64_t fallback) {
  const PyValue& v = at(c, i);
  if (v.kind != PyValue::Kind::kStr || v.s.empty()) return fallback;
  const auto parsed = literal_eval(v.s);
  if (!parsed || parsed->kind != PyValue::Kind::kInt) return std::nullopt;
  return parsed->i;
}

}  // namespace

// x = Input Dims[0] (batch, channels, seq_len), w = Input Dims[1] (channels, kernel_size),
// bias when Input Dims[2] is a non-empty shape.
// flops = 2·batch·channels·seq_len·kernel_size;
// bytes = (2·batch·channels·seq_len + channels·kernel_size + (channels if bias))·bpe.
ModelResult eval_causal_conv1d(const ModelInput& in) {
  ModelResult r;
  r.maf_type = "matrix";
  r.bwd.status = Status::kNotImplemented;
  const auto x = int_list(at(in.args.dims, 0)), w = int_list(at(in.args.dims, 1));
  if (!x || !w || x->size() < 3 || w->size() < 2) return r;
  const int64_t batch = (*x)[0], channels = (*x)[1], seq_len = (*x)[2], kernel = (*w)[1];
  const PyValue& b = at(in.args.dims, 2);
  const bool bias = b.is_seq() && b.size() > 0;
  r.param("batch", PyValue::integer(batch));
  r.param("channels", PyValue::integer(channels));
  r.param("seq_len", PyValue::integer(seq_len));
  r.param("kernel_size", PyValue::integer(kernel));
  r.param("has_bias", PyValue::boolean(bias));
  r.precision_dtype = at(in.args.types, 0);
  r.status = Status::kOk;
  const int64_t bpe = bpe_or(at(in.args.types, 0), 2);
  r.fwd.status = Status::kOk;
  r.fwd.flops = Count::of(2 * batch * channels * seq_len * kernel);
  r.fwd.bytes = Count::of(2 * batch * channels * seq_len * bpe + channels * kernel * bpe + (bias ? channels * bpe : 0));
  return r;
}

// zxbcdt = Input Dims[0] (B, T, combined_dim), conv weight Input Dims[1] (conv_channels,
// d_conv), H = Input Dims[3][0]; C = int(Concrete[6]) (128), P = int(Concrete[15]) (64),
// G = int(Concrete[16]) (1); d_inner = H·P; N = (combined_dim − 2·d_inner − H) / (2·G),
// which must be a positive whole number (else ValueError).
// flops = 2·B·conv_channels·T·d_conv + 2·B·G·T·C·N + 2·B·H·T·C·P + 4·B·H·T·N·P
// bytes = (B·T·combined_dim + conv_channels·d_conv + conv_channels + B·T·d_inner)·bpe
//         + H·(bpe(dt_bias, 4) + bpe(A, 4) + bpe(D, bpe)); backward identical.
ModelResult eval_mamba_ssd(const ModelInput& in) {
  ModelResult r;
  r.maf_type = "matrix";
  const EventArgs& g = in.args;
  const auto z = int_list(at(g.dims, 0)), w = int_list(at(g.dims, 1)), dt = int_list(at(g.dims, 3));
  if (!z || !w || !dt || z->size() < 3 || w->size() < 2 || dt->empty()) return r;
  const auto C = concrete_int(g.concrete, 6, 128), P = concrete_int(g.concrete, 15, 64),
             G = concrete_int(g.concrete, 16, 1);
  if (!C || !P || !G) return r;
  const int64_t B = (*z)[0], T = (*z)[1], combined = (*z)[2], conv_channels = (*w)[0], d_conv = (*w)[1], H = (*dt)[0];
  const int64_t d_inner = H * *P, numerator = combined - 2 * d_inner - H, denom = 2 * *G;
  if (numerator <= 0 || denom == 0 || numerator % denom != 0) return r;  // ValueError
  const int64_t N = numerator / denom;
  for (auto [k, v] : {std::pair{"B", B}, {"T", T}, {"H", H}, {"P", *P}, {"G", *G}, {"N", N}, {"C", *C},
                      {"d_inner", d_inner}, {"d_conv", d_conv}, {"conv_channels", conv_channels},
                      {"combined_dim", combined}})
    r.param(k, PyValue::integer(v));
  r.precision_dtype = at(g.types, 0);
  r.status = Status::kOk;
  const int64_t bpe = bpe_or(at(g.types, 0), 2);
  const int64_t params_bytes = H * (bpe_or(at(g.types, 3), 4) + bpe_or(at(g.types, 4), 4) + bpe_or(at(g.types, 5), bpe));
  const int64_t flops = 2 * B * conv_channels * T * d_conv + 2 * B * *G * T * *C * N + 2 * B * H * T * *C * *P +
                        4 * B * H * T * N * *P;
  const int64_t bytes = (B * T * combined + conv_channels * d_conv + conv_channels + B * T * d_inner) * bpe + params_bytes;
  for (Metrics* m : {&r.fwd, &r.bwd}) {
    m->status = Status::kOk;
    m->flops = Count::of(flops);
    m->bytes = Count::of(bytes);
  }
  return r;
}

}  // namespace sollens::perf
