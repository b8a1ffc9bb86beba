#pragma once
// NpyFile: NumPy's .npy format (numpy.lib.format), so tensors travel between npusim and Python.
//
// Reads format versions 1.0, 2.0 and 3.0, little-endian, C order, with the dtypes npusim has:
//   '|i1' int8, '|u1' uint8, '<i2' int16, '<i4' int32, '<u4' uint32, '<f4' float32 ('<i1' and '<u1'
//   are accepted too), and bfloat16 as ml_dtypes stores it: descr '<V2' (also '|V2') or 'bfloat16'.
// Writes exactly what numpy.save writes for the same array: version 1.0 (2.0 when the header does
// not fit in 65535 bytes), the dict "{'descr': ..., 'fortran_order': False, 'shape': (...), }",
// numpy's spare room for a growing first axis (21 - digits of shape[0] spaces), then spaces and a
// final '\n' so that magic + version + length + header is a multiple of 64 bytes.
//
// bfloat16 note: NumPy has no bfloat16; ml_dtypes' bfloat16 is a 2-byte user dtype that np.save
// records as '<V2'. npusim writes bf16 tensors with descr '<V2' as well. np.load then returns a
// void array: `np.load(f).view(ml_dtypes.bfloat16)` gives the values back. Any other 2-byte void
// ('<V2' / '|V2') file npusim reads is taken to be bfloat16.
//
// Errors are NpyError exceptions whose message starts with the file name.
#include "npusim/harness/Tensor.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace npusim::harness {

/// A .npy file that cannot be read or written, or does not fit what it is used for.
class NpyError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class NpyFile {
public:
    /// Called with a file's dtype and shape, from its header, before its data is read: throws to
    /// refuse the file (an argument of another type) without reading gigabytes first.
    using HeaderCheck = std::function<void(DType dtype, const std::vector<std::int64_t>& shape)>;
    /// Read a whole .npy file. The header (at most 1 MiB, tuples and lists nested at most 32 deep)
    /// says how many data bytes follow: a regular file of another size is refused from its size,
    /// before the data is read; from anything else (a pipe, a device) at most that many bytes and
    /// one more are read.
    static Tensor read(const std::string& path, const HeaderCheck& check = {});
    /// Write `t` as a .npy file (byte-for-byte what numpy.save writes; bf16 as '<V2').
    static void write(const std::string& path, const Tensor& t);
    /// The same for bytes held elsewhere (a run's host tensor), written as they are, not copied
    /// first; NpyError unless `data` holds exactly the shape's elements of `dtype`.
    static void write(const std::string& path, DType dtype, const std::vector<std::int64_t>& shape,
                      std::span<const std::uint8_t> data);

    /// Decode .npy bytes; `source` names them in error messages (a file name).
    static Tensor parse(std::span<const std::uint8_t> bytes, const std::string& source);
    /// Encode `t` as .npy bytes.
    static std::vector<std::uint8_t> serialize(const Tensor& t);
    /// The header numpy.save writes for this dtype and shape: magic "\x93NUMPY", version, header
    /// length (little-endian), dict text padded with spaces to a multiple of 64 bytes, '\n'.
    static std::string header(DType dtype, const std::vector<std::int64_t>& shape);

    /// The descr npusim writes: '|i1', '|u1', '<i2', '<i4', '<u4', '<f4', '<V2' (bf16).
    static std::string descr(DType t);
    /// The dtype a descr stands for, or nothing when npusim does not support it.
    static std::optional<DType> dtype_of_descr(std::string_view descr);
};

/// Whether `name` can be a file's name inside a folder, and nothing else: not empty, not "." or
/// "..", no '/' (so no absolute path and no way out of the folder) and no NUL.
bool is_plain_file_name(const std::string& name);

} // namespace npusim::harness
