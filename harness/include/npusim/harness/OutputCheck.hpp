#pragma once
// Comparing an output tensor with its expected values: exact for integer element types, numpy
// isclose-style (|got - want| <= atol + rtol * |want|) for f32 and bf16. The result counts the
// mismatches, keeps their indices, and the first few values side by side, formatted per dtype.
#include "npusim/harness/Tensor.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npusim::harness {

/// One differing element: its flat (row-major) index, both values formatted for the dtype, and
/// for floats the absolute and relative error (relative to |want|; infinite when want is 0).
struct ValuePair {
    std::uint64_t index = 0;
    std::string got;
    std::string want;
    double got_value = 0; ///< the element's value (exact for every integer dtype here)
    double want_value = 0;
    double abs_err = 0;
    double rel_err = 0;
};

/// The result of comparing one output tensor with its expected values.
struct OutputCheck {
    static constexpr std::size_t kMaxIndices = 1024; ///< mismatch indices kept
    static constexpr std::size_t kMaxShown = 8; ///< values kept side by side

    std::string name; ///< "c (arg 1)"
    std::string arg; ///< "c"
    int arg_index = -1;
    DType dtype = DType::i32;
    std::vector<std::int64_t> shape;
    bool match = false;
    std::uint64_t elements = 0;
    std::uint64_t mismatches = 0;
    std::vector<std::uint64_t> mismatch_indices; ///< ascending flat indices, the first kMaxIndices
    std::vector<ValuePair> first; ///< the first kMaxShown mismatches
    std::string first_mismatches; ///< one line: "[7] got 3 want 4; [9] got ..."
    std::string error; ///< dtype/shape disagreement (nothing compared)
    std::string expected_from = "reference"; ///< "reference" or the file the expected values came from

    std::uint64_t ignored = 0; ///< elements left out by the argument's ignore mask

    // Float outputs only.
    bool is_float = false;
    double rtol = 0;
    double atol = 0;
    double max_abs_err = 0; ///< over all elements (infinite where only one side is NaN or inf)
    double max_rel_err = 0; ///< over all elements with want != 0

    /// The mismatch indices as ranges: "[10], [4000..4095]" (at most `max_groups` groups, then "...").
    std::string index_summary(std::size_t max_groups = 12) const;
};

/// How float outputs are compared.
enum class ToleranceMode {
    /// numpy.isclose / allclose: |got - want| <= atol + rtol * |want|; NaN matches NaN, an infinity
    /// only the same infinity (npusim's default).
    allclose,
    /// mlir-aie's python/utils/verify.py nearly_equal (and test_utils.cpp): in float32,
    /// got == want or |got - want| < max(atol, rtol * min(|got| + |want|, FLT_MAX)); NaN never
    /// matches. IRON's defaults are rtol 0.128, atol FLT_MIN; here the argument's (or --rtol/--atol).
    nearly_equal,
};
std::string_view tolerance_mode_name(ToleranceMode m);
std::optional<ToleranceMode> parse_tolerance_mode(std::string_view s);

/// Compare `got` with `want` for output argument `arg` (its index `arg_index`). Integer dtypes are
/// compared exactly and rtol/atol are ignored; f32 and bf16 use rtol/atol in `mode`. Elements in
/// the argument's ignore mask are not compared (counted in `ignored`).
OutputCheck compare_output(const ArgSpec& arg, int arg_index, const Tensor& got, const Tensor& want, double rtol,
                           double atol, ToleranceMode mode = ToleranceMode::allclose);

/// Tolerances replacing every float output's own (RunOptions::rtol / atol, `--rtol` / `--atol`).
struct ToleranceOverride {
    std::optional<double> rtol;
    std::optional<double> atol;
    ToleranceMode mode = ToleranceMode::allclose;
};

/// Host tensors to check hold one byte vector per argument: DesignError naming `design` otherwise.
void require_host_per_argument(const std::string& design, const std::vector<ArgSpec>& args, std::size_t host_tensors);

/// The one output comparison of a run: every output argument of `args`, in order, in `host_after`
/// (one byte vector per argument, as the simulator returns them) against `want` (by argument
/// name), with compare_output and the argument's tolerances unless `tol` replaces them. An output
/// whose byte count differs from its argument is reported (`error` set), not compared;
/// require_host_per_argument first.
std::vector<OutputCheck> check_outputs(const std::string& design, const std::vector<ArgSpec>& args,
                                       const std::vector<std::vector<std::uint8_t>>& host_after, const Tensors& want,
                                       const ToleranceOverride& tol = {});

/// One element formatted for its dtype: integers in decimal, f32 and bf16 as the shortest decimal
/// that reads back as the same float ("0.1", "1.0078125", "nan", "-inf").
std::string format_value(DType t, const std::uint8_t* element);
/// One element's value as a double (exact for the integer dtypes, which have at most 32 bits).
double element_value(DType t, const std::uint8_t* element);
/// A flat index in numpy notation for `shape`: "[10]" for 1-D, "[1, 2]" for 2-D, "[0]" for a scalar.
std::string format_index(std::uint64_t flat, const std::vector<std::int64_t>& shape);
/// The mismatches of a failed check as an aligned, multi-line text (each line starts with `indent`):
/// the count, the indices, the first values side by side (got, want, and errors for floats).
std::string describe_mismatches(const OutputCheck& c, const std::string& indent = "    ");

} // namespace npusim::harness
