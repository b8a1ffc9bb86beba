#include "npusim/harness/OutputCheck.hpp"

#include "npusim/kernels/bfloat16.hpp"
#include "npusim/model/Error.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <limits>

namespace npusim::harness {

namespace {

template <class T>
T load(const std::uint8_t* p) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
}

double load_float(DType t, const std::uint8_t* p) {
    if (t == DType::bf16) return bfloat16::to_float(load<std::uint16_t>(p));
    return load<float>(p);
}

std::string bf16_str(std::uint16_t bits) {
    const float f = bfloat16::to_float(bits);
    if (!std::isfinite(f)) return fmt::format("{}", f);
    // The shortest decimal that reads back as the same bfloat16.
    for (int p = 1; p < 9; ++p) {
        std::string s = fmt::format("{:.{}g}", f, p);
        if (bfloat16::from_float(std::strtof(s.c_str(), nullptr)) == bits) return s;
    }
    return fmt::format("{}", f);
}

std::string error_str(double e) { return std::isinf(e) ? "inf" : fmt::format("{:.3g}", e); }

} // namespace

std::string format_value(DType t, const std::uint8_t* p) {
    switch (t) {
    case DType::i8: return fmt::format("{}", static_cast<int>(load<std::int8_t>(p)));
    case DType::u8: return fmt::format("{}", static_cast<int>(load<std::uint8_t>(p)));
    case DType::i16: return fmt::format("{}", load<std::int16_t>(p));
    case DType::u16: return fmt::format("{}", load<std::uint16_t>(p));
    case DType::i32: return fmt::format("{}", load<std::int32_t>(p));
    case DType::u32: return fmt::format("{}", load<std::uint32_t>(p));
    case DType::f32: return fmt::format("{}", load<float>(p));
    case DType::bf16: return bf16_str(load<std::uint16_t>(p));
    case DType::bfp16ebs8: { // a block: its exponent byte and its 8 mantissas
        std::string s = fmt::format("{{e={}:", static_cast<int>(p[0]));
        for (int k = 1; k <= 8; ++k) s += fmt::format(" {}", static_cast<int>(static_cast<std::int8_t>(p[k])));
        return s + "}";
    }
    }
    return "?";
}

double element_value(DType t, const std::uint8_t* p) {
    switch (t) {
    case DType::i8: return load<std::int8_t>(p);
    case DType::u8: return load<std::uint8_t>(p);
    case DType::i16: return load<std::int16_t>(p);
    case DType::u16: return load<std::uint16_t>(p);
    case DType::i32: return load<std::int32_t>(p);
    case DType::u32: return load<std::uint32_t>(p);
    case DType::f32:
    case DType::bf16: return load_float(t, p);
    // A block's first value (m * 2^(E - 133)); block outputs are compared byte for byte.
    case DType::bfp16ebs8: return std::ldexp(static_cast<double>(static_cast<std::int8_t>(p[1])), int(p[0]) - 133);
    }
    return 0;
}

std::string format_index(std::uint64_t flat, const std::vector<std::int64_t>& shape) {
    if (shape.size() <= 1) return fmt::format("[{}]", flat);
    std::vector<std::uint64_t> idx(shape.size());
    for (std::size_t d = shape.size(); d-- > 0;) {
        const auto n = static_cast<std::uint64_t>(std::max<std::int64_t>(shape[d], 1));
        idx[d] = flat % n;
        flat /= n;
    }
    return fmt::format("[{}]", fmt::join(idx, ", "));
}

std::string OutputCheck::index_summary(std::size_t max_groups) const {
    std::string s;
    std::size_t groups = 0;
    for (std::size_t i = 0; i < mismatch_indices.size();) {
        std::size_t j = i;
        while (j + 1 < mismatch_indices.size() && mismatch_indices[j + 1] == mismatch_indices[j] + 1) ++j;
        if (groups == max_groups) {
            s += ", ...";
            return s;
        }
        s += groups++ ? ", " : "";
        s += format_index(mismatch_indices[i], shape);
        if (j > i) s += ".." + format_index(mismatch_indices[j], shape);
        i = j + 1;
    }
    if (mismatches > mismatch_indices.size()) s += ", ...";
    return s;
}

std::string_view tolerance_mode_name(ToleranceMode m) {
    return m == ToleranceMode::allclose ? "allclose" : "nearly-equal";
}

std::optional<ToleranceMode> parse_tolerance_mode(std::string_view s) {
    if (s == "allclose") return ToleranceMode::allclose;
    if (s == "nearly-equal") return ToleranceMode::nearly_equal;
    return std::nullopt;
}

namespace {

// What every check of `arg` starts with: its name, type and tolerances, nothing compared yet.
OutputCheck unchecked(const ArgSpec& arg, int arg_index, double rtol, double atol) {
    OutputCheck c;
    c.name = fmt::format("{} (arg {})", arg.name, arg_index);
    c.arg = arg.name;
    c.arg_index = arg_index;
    c.dtype = arg.dtype;
    c.shape = arg.shape;
    c.elements = static_cast<std::uint64_t>(arg.elements());
    c.is_float = arg.is_float();
    if (c.is_float) {
        c.rtol = rtol;
        c.atol = atol;
    }
    return c;
}

// compare_output on bytes: `got` and `want` hold arg.bytes() each. check_outputs compares a run's
// outputs in place with it, without copying them into Tensors.
OutputCheck compare_bytes(const ArgSpec& arg, int arg_index, const std::uint8_t* got, const std::uint8_t* want,
                          double rtol, double atol, ToleranceMode mode) {
    OutputCheck c = unchecked(arg, arg_index, rtol, atol);
    const std::size_t eb = dtype_bytes(arg.dtype);
    auto record = [&](std::uint64_t i, double abs_err, double rel_err) {
        if (c.mismatch_indices.size() < OutputCheck::kMaxIndices) c.mismatch_indices.push_back(i);
        if (c.first.size() < OutputCheck::kMaxShown) {
            ValuePair v{i,
                        format_value(arg.dtype, got + i * eb),
                        format_value(arg.dtype, want + i * eb),
                        element_value(arg.dtype, got + i * eb),
                        element_value(arg.dtype, want + i * eb),
                        abs_err,
                        rel_err};
            c.first_mismatches += fmt::format("{}{} got {} want {}", c.first_mismatches.empty() ? "" : "; ",
                                              format_index(i, c.shape), v.got, v.want);
            c.first.push_back(std::move(v));
        }
        ++c.mismatches;
    };
    auto skip = [&](std::uint64_t i) { return !arg.ignore.empty() && arg.ignore[i] != 0; };
    for (auto m : arg.ignore) c.ignored += m != 0 ? 1 : 0;
    if (!c.is_float) {
        if (c.elements != 0 && std::memcmp(got, want, c.elements * eb) != 0)
            for (std::uint64_t i = 0; i < c.elements; ++i)
                if (!skip(i) && std::memcmp(got + i * eb, want + i * eb, eb) != 0) record(i, 0, 0);
    } else {
        constexpr double inf = std::numeric_limits<double>::infinity();
        for (std::uint64_t i = 0; i < c.elements; ++i) {
            if (skip(i)) continue;
            const double g = load_float(arg.dtype, got + i * eb);
            const double w = load_float(arg.dtype, want + i * eb);
            bool ok;
            double ae, re;
            if (mode == ToleranceMode::nearly_equal) {
                // verify.py nearly_equal, in float32 as it coerces its inputs.
                const float gf = static_cast<float>(g), wf = static_cast<float>(w);
                const float diff = std::fabs(gf - wf);
                const float norm = std::min(std::fabs(gf) + std::fabs(wf), std::numeric_limits<float>::max());
                ok = gf == wf || diff < std::max(static_cast<float>(atol), static_cast<float>(rtol) * norm);
                ae = std::isnan(diff) ? inf : static_cast<double>(diff);
                re = w != 0 ? ae / std::fabs(w) : (ae == 0 ? 0 : inf);
                if (w != 0 && std::isfinite(re)) c.max_rel_err = std::max(c.max_rel_err, re);
            } else if (std::isnan(g) || std::isnan(w)) {
                ok = std::isnan(g) && std::isnan(w);
                ae = re = ok ? 0 : inf;
            } else if (std::isinf(g) || std::isinf(w)) {
                ok = g == w;
                ae = re = ok ? 0 : inf;
            } else {
                ae = std::fabs(g - w);
                re = w != 0 ? ae / std::fabs(w) : (ae == 0 ? 0 : inf);
                ok = ae <= atol + rtol * std::fabs(w);
                if (w != 0) c.max_rel_err = std::max(c.max_rel_err, re);
            }
            if (!ok && std::isinf(re)) c.max_rel_err = std::max(c.max_rel_err, re);
            c.max_abs_err = std::max(c.max_abs_err, ae);
            if (!ok) record(i, ae, re);
        }
    }
    c.match = c.mismatches == 0;
    return c;
}

} // namespace

OutputCheck compare_output(const ArgSpec& arg, int arg_index, const Tensor& got, const Tensor& want, double rtol,
                           double atol, ToleranceMode mode) {
    if (arg.matches(got) && arg.matches(want))
        return compare_bytes(arg, arg_index, got.data.data(), want.data.data(), rtol, atol, mode);
    OutputCheck c = unchecked(arg, arg_index, rtol, atol);
    c.error = fmt::format("cannot compare: got {}, expected {}, the argument is {}", got.type_str(), want.type_str(),
                          arg.type_str());
    c.mismatches = c.elements;
    c.first_mismatches = c.error;
    return c;
}

void require_host_per_argument(const std::string& design, const std::vector<ArgSpec>& args, std::size_t host_tensors) {
    if (host_tensors != args.size())
        throw DesignError(fmt::format("design '{}': {} host tensors to check, the design has {} arguments", design,
                                      host_tensors, args.size()));
}

std::vector<OutputCheck> check_outputs(const std::string& design, const std::vector<ArgSpec>& args,
                                       const std::vector<std::vector<std::uint8_t>>& host_after, const Tensors& want,
                                       const ToleranceOverride& tol) {
    require_host_per_argument(design, args, host_after.size());
    std::vector<OutputCheck> checks;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const auto& s = args[i];
        if (!s.is_checked()) continue;
        const double rtol = tol.rtol.value_or(s.rtol), atol = tol.atol.value_or(s.atol);
        if (host_after[i].size() != s.bytes()) {
            OutputCheck c = compare_output(
                s, static_cast<int>(i),
                Tensor(s.dtype, {static_cast<std::int64_t>(host_after[i].size() / dtype_bytes(s.dtype))}),
                want.at(s.name), rtol, atol);
            c.error = fmt::format("cannot compare: the output holds {} bytes, the argument {} has {}",
                                  host_after[i].size(), s.type_str(), s.bytes());
            c.first_mismatches = c.error;
            checks.push_back(std::move(c));
            continue;
        }
        const Tensor& w = want.at(s.name);
        if (s.matches(w)) // compared in place: the output is not copied
            checks.push_back(
                compare_bytes(s, static_cast<int>(i), host_after[i].data(), w.data.data(), rtol, atol, tol.mode));
        else
            checks.push_back(compare_output(s, static_cast<int>(i), Tensor(s.dtype, s.shape, host_after[i]), w, rtol,
                                            atol, tol.mode));
    }
    return checks;
}

std::string describe_mismatches(const OutputCheck& c, const std::string& indent) {
    if (!c.error.empty()) return indent + c.error + "\n";
    std::string s;
    if (c.match) return s;
    s += fmt::format("{}{} of {} elements differ at {}\n", indent, c.mismatches, c.elements, c.index_summary());
    if (c.is_float)
        s += fmt::format("{}max abs err {}, max rel err {} (tolerance: rtol {:g}, atol {:g})\n", indent,
                         error_str(c.max_abs_err), error_str(c.max_rel_err), c.rtol, c.atol);
    std::vector<std::vector<std::string>> rows;
    rows.push_back({"index", "got", "want"});
    if (c.is_float) {
        rows[0].push_back("abs err");
        rows[0].push_back("rel err");
    }
    for (const auto& v : c.first) {
        rows.push_back({format_index(v.index, c.shape), v.got, v.want});
        if (c.is_float) {
            rows.back().push_back(error_str(v.abs_err));
            rows.back().push_back(error_str(v.rel_err));
        }
    }
    std::vector<std::size_t> w(rows[0].size(), 0);
    for (const auto& r : rows)
        for (std::size_t k = 0; k < r.size(); ++k) w[k] = std::max(w[k], r[k].size());
    for (const auto& r : rows) {
        std::string line = indent;
        for (std::size_t k = 0; k < r.size(); ++k) line += fmt::format("{}{:>{}}", k ? "  " : "", r[k], w[k]);
        s += line + "\n";
    }
    if (c.mismatches > c.first.size()) s += fmt::format("{}... {} more\n", indent, c.mismatches - c.first.size());
    return s;
}

} // namespace npusim::harness
