#include "MpiSession.hpp"

#include <cstdlib>
#include <exception>
#include <stdexcept>

#if NPUSIM_HAVE_MPI
#include <mpi.h>
#endif

namespace npusim::tools {

bool launched_by_mpi() {
    for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
        if (std::getenv(v)) return true;
    return false;
}

int launcher_rank() {
    for (const char* v : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"})
        if (const char* r = std::getenv(v)) return std::atoi(r);
    return -1;
}

bool built_with_mpi() { return NPUSIM_HAVE_MPI != 0; }

#if NPUSIM_HAVE_MPI

namespace {
void check(int rc, const char* what) {
    if (rc != MPI_SUCCESS) throw std::runtime_error(std::string("MPI: ") + what + " failed");
}
} // namespace

MpiSession::MpiSession() {
    // Worker processes are forked below MPI; they never call MPI and leave with _exit.
    ::setenv("OMPI_MCA_mpi_warn_on_fork", "0", 0);
    int provided = 0;
    check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SINGLE, &provided), "MPI_Init_thread");
    check(MPI_Comm_rank(MPI_COMM_WORLD, &rank_), "MPI_Comm_rank");
    check(MPI_Comm_size(MPI_COMM_WORLD, &size_), "MPI_Comm_size");
    MPI_Comm local;
    check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &local),
          "MPI_Comm_split_type");
    check(MPI_Comm_size(local, &local_size_), "MPI_Comm_size");
    MPI_Comm_free(&local);
}

// Leaving by an exception: the other ranks may wait in a collective this rank never reaches, so the
// whole job ends (MPI_Abort) instead of hanging.
MpiSession::~MpiSession() {
    if (std::uncaught_exceptions() > 0 && !collectives_done_) MPI_Abort(MPI_COMM_WORLD, 2);
    MPI_Finalize();
}

std::vector<std::string> MpiSession::gather(const std::string& mine) const {
    const int len = static_cast<int>(mine.size());
    std::vector<int> lens(rank_ == 0 ? static_cast<std::size_t>(size_) : 0);
    check(MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, MPI_COMM_WORLD), "MPI_Gather");
    std::vector<int> displs;
    std::string all;
    if (rank_ == 0) {
        int at = 0;
        for (int l : lens) {
            displs.push_back(at);
            at += l;
        }
        all.resize(static_cast<std::size_t>(at));
    }
    check(MPI_Gatherv(mine.data(), len, MPI_CHAR, all.data(), lens.data(), displs.data(), MPI_CHAR, 0, MPI_COMM_WORLD),
          "MPI_Gatherv");
    std::vector<std::string> out;
    for (std::size_t r = 0; r < lens.size(); ++r)
        out.push_back(all.substr(static_cast<std::size_t>(displs[r]), static_cast<std::size_t>(lens[r])));
    return out;
}

#else

MpiSession::MpiSession() {
    throw std::runtime_error("npusim was built without MPI (CMake found no MPI: install libopenmpi-dev and "
                             "rebuild; a project built against an installed npusim asks for it with "
                             "find_package(npusim COMPONENTS mpi)), so it cannot split work over the ranks of mpirun");
}

MpiSession::~MpiSession() = default;

std::vector<std::string> MpiSession::gather(const std::string& mine) const { return {mine}; }

#endif

} // namespace npusim::tools
