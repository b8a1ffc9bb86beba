#pragma once
// MpiSession: the MPI world of a command started by mpirun (`mpirun -np N npusim sweep ...`), for
// splitting work over ranks and gathering their results on rank 0. Built on Open MPI when CMake
// found it (NPUSIM_HAVE_MPI); without it, a command started by mpirun is refused with a message
// rather than run N times over. A command not started by mpirun never initializes MPI.
#include <string>
#include <vector>

namespace npusim::tools {

/// Whether this process was started by an MPI launcher (its environment says so: Open MPI's
/// OMPI_COMM_WORLD_SIZE, or PMI_SIZE / PMIX_RANK of other launchers).
bool launched_by_mpi();
/// This process's rank as its launcher set it in the environment (OMPI_COMM_WORLD_RANK, PMI_RANK or
/// PMIX_RANK), before MPI is initialised; -1 when none is set.
int launcher_rank();
/// Whether npusim was built with MPI.
bool built_with_mpi();

class MpiSession {
public:
    /// MPI_Init (std::runtime_error if npusim was built without MPI).
    MpiSession();
    ~MpiSession(); ///< MPI_Finalize
    MpiSession(const MpiSession&) = delete;
    MpiSession& operator=(const MpiSession&) = delete;

    int rank() const { return rank_; }
    int size() const { return size_; }
    /// Ranks on this machine (to share its cores among them).
    int local_size() const { return local_size_; }
    /// No collective call remains: leaving by an exception after this finalises MPI instead of
    /// aborting the job (rank 0 reports the error the ranks gathered).
    void collectives_done() { collectives_done_ = true; }
    /// Every rank's `mine`, in rank order, on rank 0; empty on the other ranks.
    std::vector<std::string> gather(const std::string& mine) const;

private:
    int rank_ = 0, size_ = 1, local_size_ = 1;
    bool collectives_done_ = false;
};

} // namespace npusim::tools
