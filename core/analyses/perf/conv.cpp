// Convolution models (tracelens-semantics.md §6.3): aten::convolution (fwd),
// aten::convolution_backward, and the fused ConvBias_ / ConvBiasReLU_ autograd functions
// with their _Backward nodes. Quirk kept: aten::convolution's bias is
// `len(Input Dims) == 3`, false for the usual 9-entry record, so bias FLOPs and bytes
// are never counted; the backward bias term is an element count, not bytes.
// Corrected (CORRECTIONS.md): bias present when the bias slot holds a shape, the
// backward bias bytes multiplied by the bytes per element, and a forward kernel smaller
// than its stride reads only the input pixels under its windows (channels-last).
#include <algorithm>
#include <string>

#include "analyses/perf/models.h"

namespace sollens::perf {

namespace {

// "[16, 16]" → (16, 16); "" → nullopt (defaults); a bare int → (n,).
std::optional<std::vector<int64_t>> parse_int_tuple_text(const PyValue& v, bool& ok) {
  ok = true;
  if (v.is_seq()) {
    auto l = int_list(v);
    if (!l) ok = false;
    return l;
  }
  if (v.kind == PyValue::Kind::kInt) return std::vector<int64_t>{v.i};
  if (v.kind == PyValue::Kind::kNone) return std::nullopt;
  if (v.kind != PyValue::Kind::kStr) {
    ok = false;
    return std::nullopt;
  }
  if (v.s.empty()) return std::nullopt;
  std::vector<int64_t> out;
  std::string cur;
  bool any = false;
  for (char ch : v.s) {
    if ((ch >= '0' && ch <= '9') || ch == '-') {
      cur += ch;
      any = true;
    } else if (ch == ',' || ch == ']' || ch == ')') {
      if (!cur.empty()) out.push_back(std::stoll(cur));
      cur.clear();
    } else if (ch != '[' && ch != '(' && ch != ' ') {
      ok = false;
      return std::nullopt;
    }
  }
  if (!cur.empty()) out.push_back(std::stoll(cur));
  if (!any) ok = false;
  return out;
}

std::vector<int64_t> swap01(std::vector<int64_t> s) {
  if (s.size() >= 2) std::swap(s[0], s[1]);
  return s;
}

int64_t tail_prod(const std::vector<int64_t>& s) {
  int64_t p = 1;
  for (size_t k = 1; k < s.size(); ++k) p *= s[k];
  return p;
}

int64_t flops_fwd(const std::vector<int64_t>& x, const std::vector<int64_t>& w,
                  const std::vector<int64_t>& out, bool bias, bool transposed) {
  const int64_t P = transposed ? prod(x) : prod(out);
  return P * 2 * tail_prod(w) + (bias ? prod(out) : 0);
}

// Python's int() of a Concrete Inputs string: optional sign, digits, surrounding blanks.
std::optional<int64_t> python_int(const PyValue& v) {
  if (v.kind != PyValue::Kind::kStr) return std::nullopt;
  const size_t b = v.s.find_first_not_of(" \t"), e = v.s.find_last_not_of(" \t");
  if (b == std::string::npos) return std::nullopt;
  const std::string t = v.s.substr(b, e - b + 1);
  size_t k = t[0] == '-' || t[0] == '+' ? 1 : 0;
  if (k == t.size()) return std::nullopt;
  for (size_t i = k; i < t.size(); ++i)
    if (t[i] < '0' || t[i] > '9') return std::nullopt;
  return std::strtoll(t.c_str(), nullptr, 10);
}

// Input elements a forward convolution loads from memory. A kernel smaller than its
// stride (1x1 stride 2: ResNet's downsampling) never reads the pixels between its
// windows; in channels-last memory (channel stride 1) a skipped pixel's channels are
// whole 32-byte sectors, so they are never loaded. Otherwise every input element counts.
int64_t input_elements_read(const std::vector<int64_t>& x, const std::vector<int64_t>& w,
                            const std::vector<int64_t>& out, const std::vector<int64_t>& stride,
                            const std::vector<int64_t>& dilation, const std::optional<std::vector<int64_t>>& x_strides,
                            int64_t bytes_per_elem) {
  const bool channels_last = x_strides && x_strides->size() == x.size() && (*x_strides)[1] == 1;
  if (!channels_last || x[1] * bytes_per_elem < 32) return prod(x);
  int64_t n = x[0] * x[1];
  for (size_t i = 0; i + 2 < x.size(); ++i) {
    const int64_t k = w[i + 2];
    const bool skips = dilation[i] == 1 && k < stride[i];
    n *= skips ? std::min(x[i + 2], out[i + 2] * k) : x[i + 2];
  }
  return n;
}

// Conv output shape, as CONV.get_output_shape for a non-transposed convolution.
std::vector<int64_t> conv_out_shape(const std::vector<int64_t>& x, const std::vector<int64_t>& w,
                                    const std::vector<int64_t>& stride, const std::vector<int64_t>& padding) {
  std::vector<int64_t> out{x[0], w[0]};
  for (size_t i = 0; i + 2 < x.size(); ++i) {
    const double v = static_cast<double>(x[i + 2] + 2 * padding[i] - (w[i + 2] - 1) - 1) /
                         static_cast<double>(stride[i]) + 1;
    out.push_back(static_cast<int64_t>(v));
  }
  return out;
}

}  // namespace

// ConvBias_ / ConvBiasReLU_ (input, weight, bias, stride, padding): stride and padding
// are single ints in Concrete Inputs[3..4] (absent: 1 / 0), dilation 1, groups 1, bias
// always counted. Their _Backward nodes have no shapes of their own: TraceLens takes the
// params cached by the forward model with the same Sequence number (`in.forward_args`),
// and without one the model raises (the row is skipped).
ModelResult eval_conv_bias(Model m, const ModelInput& in) {
  const bool backward = m == Model::kConvBiasBwd || m == Model::kConvBiasReluBwd;
  if (backward && !in.forward_args) return {};
  const EventArgs& g = backward ? *in.forward_args : in.args;
  ModelResult r;
  r.maf_type = "matrix";
  auto x = int_list(at(g.dims, 0)), w = int_list(at(g.dims, 1));
  if (!x || !w || !g.concrete.is_seq()) return r;
  if (x->size() < 3 || x->size() > 5 || w->size() < x->size()) return r;
  const size_t nd = x->size() - 2;
  std::vector<int64_t> stride(nd, 1), padding(nd, 0);
  for (auto [slot, target] : {std::pair{size_t{3}, &stride}, {size_t{4}, &padding}}) {
    const PyValue& v = at(g.concrete, slot);
    if (v.kind == PyValue::Kind::kStr && v.s.empty()) continue;
    if (v.kind == PyValue::Kind::kNone && slot >= g.concrete.size()) continue;
    auto n = python_int(v);
    if (!n) return r;
    target->assign(nd, *n);
  }
  for (int64_t st : stride)
    if (st == 0) return r;  // ZeroDivisionError
  const PyValue dt_in = at(g.types, 0), dt_w = at(g.types, 1);
  if (repr(dt_in) != repr(dt_w)) return r;  // ValueError
  const bool strides_known = g.strides.is_seq() && g.strides.size() >= 2;

  r.param("convNd", PyValue::str("conv" + std::to_string(nd) + "d"));
  r.param("input_shape", int_tuple(*x));
  r.param("filter_shape", int_tuple(*w));
  r.param("dtype_input_weight", PyValue::tuple({dt_in, dt_w}));
  r.param("input_stride", strides_known ? g.strides[0].as_tuple() : PyValue::none());
  r.param("weight_stride", strides_known ? g.strides[1].as_tuple() : PyValue::none());
  r.param("bias", PyValue::boolean(true));
  r.param("stride", int_tuple(stride));
  r.param("padding", int_tuple(padding));
  r.param("dilation", int_tuple(std::vector<int64_t>(nd, 1)));
  r.param("transposed_conv", PyValue::boolean(false));
  r.param("output_padding", int_tuple(std::vector<int64_t>(nd, 0)));
  r.param("groups", PyValue::integer(1));
  r.precision_dtype = dt_in;
  r.status = Status::kOk;

  const std::vector<int64_t> out = conv_out_shape(*x, *w, stride, padding);
  const auto bpe = bytes_per_element(dt_in);
  Metrics fwd, bwd;
  fwd.status = bwd.status = Status::kOk;
  fwd.flops = Count::of(flops_fwd(*x, *w, out, true, false));
  if (bpe) fwd.bytes = Count::of((prod(*x) + prod(*w) + out[1] + prod(out)) * *bpe);
  const int64_t dx = flops_fwd(out, *w, *x, false, true);
  const int64_t dw = flops_fwd(swap01(*x), swap01(out), swap01(*w), false, false);
  bwd.flops = Count::of(dx + dw + prod(out));
  // The bias gradient term is an element count, not bytes, as in aten::convolution_backward.
  if (bpe) bwd.bytes = Count::of(2 * (prod(out) + prod(*w) + prod(*x)) * *bpe + prod(out) + out[1]);
  if (backward) {
    r.fwd = bwd;  // its flops()/bytes() are the backward formulas
    r.bwd.status = Status::kNotImplemented;
  } else {
    r.fwd = fwd;
    r.bwd = bwd;
  }
  return r;
}

ModelResult eval_conv(Model m, const ModelInput& in) {
  ModelResult r;
  r.maf_type = "matrix";
  const EventArgs& g = in.args;
  const size_t o = m == Model::kConvBwd ? 1 : 0;  // backward: every slot shifts by one
  auto x = int_list(at(g.dims, o)), w = int_list(at(g.dims, o + 1));
  if (!x || !w || x->size() < 3 || w->size() != x->size()) return r;
  const size_t nd = x->size() - 2;
  std::vector<int64_t> stride(nd, 1), padding(nd, 0), dilation(nd, 1), output_padding(nd, 0);
  const PyValue& c = g.concrete;
  for (auto [slot, target] : {std::pair{o + 3, &stride}, {o + 4, &padding}, {o + 5, &dilation}, {o + 7, &output_padding}}) {
    bool ok = true;
    auto v = parse_int_tuple_text(at(c, slot), ok);
    if (!ok) return r;
    if (!v) continue;
    if (v->size() == 1) v->assign(nd, (*v)[0]);
    if (v->size() != nd) return r;
    *target = *v;
  }
  const PyValue& tv = at(c, o + 6);
  if (tv.kind != PyValue::Kind::kStr || (tv.s != "True" && tv.s != "False")) return r;
  const bool transposed = tv.s == "True";
  const PyValue& gv = at(c, o + 8);
  int64_t groups = 0;
  if (gv.kind == PyValue::Kind::kStr && !gv.s.empty()) {
    char* end = nullptr;
    groups = std::strtoll(gv.s.c_str(), &end, 10);
    if (end != gv.s.c_str() + gv.s.size()) return r;
  } else if (gv.kind == PyValue::Kind::kInt) {
    groups = gv.i;
  } else {
    return r;
  }
  const PyValue dt_in = at(g.types, o), dt_w = at(g.types, o + 1);
  if (repr(dt_in) != repr(dt_w)) return r;  // ValueError
  if (nd < 1 || nd > 3) return r;
  const PyValue bias_slot = at(g.dims, o + 2);
  const bool bias = m == Model::kConvBwd ? bias_slot.truthy() : g.dims.size() == 3;
  const bool bias_present = bias_slot.is_seq() && !bias_slot.items.empty();

  r.param("convNd", PyValue::str("conv" + std::to_string(nd) + "d"));
  r.param("input_shape", int_tuple(*x));
  r.param("filter_shape", int_tuple(*w));
  r.param("dtype_input_weight", PyValue::tuple({dt_in, dt_w}));
  r.param("input_stride", at(g.strides, o).as_tuple());
  r.param("weight_stride", at(g.strides, o + 1).as_tuple());
  r.param("bias", m == Model::kConvBwd ? bias_slot : PyValue::boolean(bias));
  r.param("stride", int_tuple(stride));
  r.param("padding", int_tuple(padding));
  r.param("dilation", int_tuple(dilation));
  r.param("transposed_conv", PyValue::boolean(transposed));
  r.param("output_padding", int_tuple(output_padding));
  r.param("groups", PyValue::integer(groups));
  r.precision_dtype = dt_in;
  r.status = Status::kOk;

  std::vector<int64_t> out{(*x)[0], transposed ? (*w)[1] : (*w)[0]};
  for (size_t i = 0; i < nd; ++i) {
    const int64_t in_i = (*x)[i + 2], k = (*w)[i + 2];
    if (transposed) {
      out.push_back((in_i - 1) * stride[i] - 2 * padding[i] + dilation[i] * (k - 1) + output_padding[i] + 1);
    } else {
      const double v = static_cast<double>(in_i + 2 * padding[i] - dilation[i] * (k - 1) - 1) /
                           static_cast<double>(stride[i]) + 1;
      out.push_back(static_cast<int64_t>(v));
    }
  }
  const auto bpe = bytes_per_element(dt_in);
  auto fwd = [&](bool b, int64_t x_elems, Metrics& mt) {
    mt.flops = Count::of(flops_fwd(*x, *w, out, b, transposed));
    if (bpe) mt.bytes = Count::of((x_elems + prod(*w) + (b ? out[1] : 0) + prod(out)) * *bpe);
  };
  auto bwd = [&](bool b, bool bias_in_bytes, Metrics& mt) {
    const int64_t dx = flops_fwd(out, *w, *x, false, !transposed);
    const int64_t dw = transposed ? flops_fwd(swap01(out), swap01(*x), swap01(*w), false, false)
                                  : flops_fwd(swap01(*x), swap01(out), swap01(*w), false, false);
    mt.flops = Count::of(dx + dw + (b ? prod(out) : 0));
    if (bpe) {
      const int64_t bias_elems = b ? prod(out) + out[1] : 0;
      mt.bytes = Count::of(2 * (prod(out) + prod(*w) + prod(*x)) * *bpe +
                           (bias_in_bytes ? bias_elems * *bpe : bias_elems));
    }
  };
  Metrics fixed_fwd, fixed_bwd;
  if (m == Model::kConv) {
    r.fwd.status = Status::kOk;
    fwd(bias, prod(*x), r.fwd);
    r.bwd.status = Status::kOk;
    bwd(bias, false, r.bwd);
    const int64_t x_read =
        transposed || !bpe ? prod(*x)
                           : input_elements_read(*x, *w, out, stride, dilation, int_list(at(g.strides, o)), *bpe);
    fwd(bias_present, x_read, fixed_fwd);
    bwd(bias_present, true, fixed_bwd);
    if (!(fixed_fwd.flops == r.fwd.flops)) r.fwd.flops_corrected = fixed_fwd.flops;
    if (fixed_fwd.bytes && r.fwd.bytes && !(*fixed_fwd.bytes == *r.fwd.bytes)) r.fwd.bytes_corrected = fixed_fwd.bytes;
  } else {
    // aten::convolution_backward: its own flops()/bytes() are the backward formulas.
    r.fwd.status = Status::kOk;
    bwd(bias, false, r.fwd);
    r.bwd.status = Status::kNotImplemented;
    bwd(bias, true, fixed_bwd);
  }
  if (!(fixed_bwd.flops == (m == Model::kConv ? r.bwd : r.fwd).flops) && m == Model::kConv)
    r.bwd.flops_corrected = fixed_bwd.flops;
  Metrics& target = m == Model::kConv ? r.bwd : r.fwd;
  if (fixed_bwd.bytes && target.bytes && !(*fixed_bwd.bytes == *target.bytes)) target.bytes_corrected = fixed_bwd.bytes;
  return r;
}

}  // namespace sollens::perf
