#pragma once
// The header of a .npy file (numpy.lib.format): the magic string, the version, the header length
// and the dict of descr, fortran_order and shape, parsed as a small Python-literal reader. Kept
// apart from NpyFile so that a file can be checked from its header before its data is read.
#include "npusim/harness/Tensor.hpp"
#include "npusim/model/BoundedFile.hpp"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace npusim::harness::detail {

inline constexpr char kNpyMagic[] = "\x93NUMPY";
inline constexpr std::size_t kNpyMagicLen = 6;
/// magic + version + a version 2.0/3.0 length field: enough bytes to know the header's length.
inline constexpr std::size_t kNpyPrefixMax = kNpyMagicLen + 2 + 4;
/// The largest header read: 1 MiB (numpy's own reader refuses more than 10,000 bytes unless told).
inline constexpr std::uint64_t kMaxNpyHeaderBytes = 1 << 20;

struct NpyHeader {
    DType dtype;
    std::vector<std::int64_t> shape;
    std::uint64_t data_offset = 0; ///< prefix + header: where the data starts
    std::uint64_t data_bytes = 0; ///< what the dtype and shape need
};

/// Where the header of the bytes `b` (the file's first kNpyPrefixMax bytes, or all of them) ends:
/// checks the magic string and the version, and that the header length is within the limit.
std::uint64_t npy_header_end(std::span<const std::uint8_t> b, const std::string& source);
/// The header of `b`, which holds at least the file's first npy_header_end bytes (else the header
/// is truncated). NpyError for anything npusim does not read.
NpyHeader parse_npy_header(std::span<const std::uint8_t> b, const std::string& source);
/// NpyError unless exactly `have` bytes follow the header (`more`: there are more than `have`,
/// how many is not known: a pipe or a device that has not ended).
void check_npy_data_size(const NpyHeader& h, std::uint64_t have, bool more, const std::string& source);

} // namespace npusim::harness::detail
