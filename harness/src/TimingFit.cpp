#include "npusim/harness/TimingFit.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <stdexcept>

namespace npusim::harness {

namespace {

constexpr double kMaxCycles = 16'777'216.0; // 2^24

bool is_integer_row(const model::TimingParamRow& row) {
    return std::holds_alternative<std::uint32_t model::TimingParams::*>(row.member);
}

/// The widest port a source gives for a generation, in B/cycle (the header's bounds).
double port_width(model::Arch arch) { return arch == model::Arch::AIE2 ? 4.0 : 8.0; }

double clamp_round(const FitParameter& p, double v) {
    v = std::clamp(v, p.lower, p.upper);
    if (p.integer) v = std::clamp(std::round(v), std::ceil(p.lower), std::floor(p.upper));
    return v;
}

struct Evaluated {
    std::vector<double> residuals;
    double cost = 0;
};

/// Which parameters the observations can tell apart, from the Jacobian at the start: in order of
/// how much they move the observations (columns scaled by each parameter's scale), a parameter is
/// fitted when its column has a part of at least `separable_fraction` of its length outside the
/// span of those chosen before it; otherwise it is held at its start (out.held: the index of the
/// chosen parameter it moves most like, or kNoEffect when nothing moves with it).
void select_separable(const std::vector<FitParameter>& params, const Eigen::MatrixXd& J, const FitOptions& options,
                      FitOutcome& out) {
    const auto n = J.cols();
    Eigen::MatrixXd C = J;
    for (Eigen::Index j = 0; j < n; ++j) C.col(j) *= params[static_cast<std::size_t>(j)].scale;
    std::vector<Eigen::Index> order(static_cast<std::size_t>(n));
    for (Eigen::Index j = 0; j < n; ++j) order[static_cast<std::size_t>(j)] = j;
    std::stable_sort(order.begin(), order.end(),
                     [&](Eigen::Index a, Eigen::Index b) { return C.col(a).norm() > C.col(b).norm(); });
    std::vector<Eigen::VectorXd> basis;
    std::vector<Eigen::Index> chosen;
    for (const auto j : order) {
        const Eigen::VectorXd c = C.col(j);
        const double len = c.norm();
        if (len == 0) {
            out.held[static_cast<std::size_t>(j)] = kNoEffect;
            continue;
        }
        Eigen::VectorXd v = c;
        for (const auto& q : basis) v -= q.dot(v) * q;
        if (v.norm() >= options.separable_fraction * len) {
            basis.push_back(v / v.norm());
            chosen.push_back(j);
            continue;
        }
        Eigen::Index like = chosen.front();
        double best = -1;
        for (const auto k : chosen) {
            const double cosine = std::abs(C.col(k).dot(c)) / (C.col(k).norm() * len);
            if (cosine > best) best = cosine, like = k;
        }
        out.held[static_cast<std::size_t>(j)] = static_cast<int>(like);
    }
}

} // namespace

bool timing_row_fittable(const model::TimingParamRow& row) { return std::string_view(row.name) != "clock_mhz"; }

FitParameter timing_fit_parameter(const model::TimingParamRow& row, const model::TimingParams& timing) {
    FitParameter p;
    p.name = row.name;
    p.start = p.prior = row.get(timing);
    p.scale = std::max(p.start, 1.0);
    p.integer = is_integer_row(row);
    const std::string_view name = row.name;
    switch (row.unit) {
    case model::TimingUnit::Cycles: p.lower = 0, p.upper = kMaxCycles; break;
    case model::TimingUnit::Microseconds: p.lower = 0, p.upper = 1e6; break;
    case model::TimingUnit::MHz: p.lower = p.upper = p.start; break; // the clock is not fitted
    case model::TimingUnit::BytesPerCycle:
        p.lower = p.start / 64;
        if (name == "memtile_memory_bytes_per_cycle")
            p.upper = p.start;
        else if (name == "ddr_bytes_per_cycle")
            p.upper = 4 * p.start;
        else
            p.upper = std::max(p.start, port_width(timing.arch));
        break;
    }
    p.start = p.prior = std::clamp(p.start, p.lower, p.upper);
    return p;
}

FitOutcome fit_least_squares(const std::vector<FitParameter>& params, const ResidualFunction& residuals,
                             const FitOptions& options) {
    if (params.empty()) throw std::invalid_argument("fit_least_squares: no parameter to fit");
    const auto n = static_cast<Eigen::Index>(params.size());
    for (const auto& p : params)
        if (p.start < p.lower || p.start > p.upper || !(p.scale > 0))
            throw std::invalid_argument(fmt::format("fit_least_squares: '{}' starts at {} outside [{}, {}]", p.name,
                                                    p.start, p.lower, p.upper));
    FitOutcome out;
    out.held.assign(params.size(), kFitted);
    auto evaluate = [&](const std::vector<double>& x) {
        Evaluated e;
        e.residuals = residuals(x);
        ++out.evaluations;
        for (double r : e.residuals) e.cost += r * r;
        for (std::size_t i = 0; i < params.size(); ++i) {
            const double d = (x[i] - params[i].prior) / params[i].scale;
            e.cost += options.prior_weight * d * d;
        }
        return e;
    };
    std::vector<double> x;
    for (const auto& p : params) x.push_back(clamp_round(p, p.start));
    Evaluated cur = evaluate(x);
    const auto m = static_cast<Eigen::Index>(cur.residuals.size());
    double mu = 1e-3;
    for (int it = 0; it < options.max_iterations; ++it) {
        out.iterations = it + 1;
        // The Jacobian of the residuals by forward (or, at an upper bound, backward) differences.
        Eigen::MatrixXd J(m, n);
        for (Eigen::Index j = 0; j < n; ++j) {
            const auto& p = params[static_cast<std::size_t>(j)];
            const double xj = x[static_cast<std::size_t>(j)];
            double h = p.integer ? std::max(1.0, std::round(0.05 * std::max(std::abs(xj), p.scale)))
                                 : 0.02 * std::max(std::abs(xj), p.scale);
            if (xj + h > p.upper) h = -h;
            auto xh = x;
            xh[static_cast<std::size_t>(j)] = xj + h;
            if (xh[static_cast<std::size_t>(j)] < p.lower) { // a parameter pinned by its bounds
                J.col(j).setZero();
                continue;
            }
            const auto rh = residuals(xh);
            ++out.evaluations;
            if (static_cast<Eigen::Index>(rh.size()) != m)
                throw std::invalid_argument("fit_least_squares: the residual function changed its length");
            for (Eigen::Index i = 0; i < m; ++i)
                J(i, j) = (rh[static_cast<std::size_t>(i)] - cur.residuals[static_cast<std::size_t>(i)]) / h;
        }
        if (it == 0) select_separable(params, J, options, out);
        for (Eigen::Index j = 0; j < n; ++j)
            if (out.held[static_cast<std::size_t>(j)] >= -1) J.col(j).setZero(); // held at its start
        Eigen::VectorXd r = Eigen::Map<const Eigen::VectorXd>(cur.residuals.data(), m);
        Eigen::VectorXd W(n), dev(n);
        for (Eigen::Index j = 0; j < n; ++j) {
            const auto& p = params[static_cast<std::size_t>(j)];
            W(j) = options.prior_weight / (p.scale * p.scale);
            dev(j) = x[static_cast<std::size_t>(j)] - p.prior;
        }
        const Eigen::MatrixXd JtJ = J.transpose() * J;
        const Eigen::VectorXd g = J.transpose() * r + W.cwiseProduct(dev);
        bool improved = false;
        for (int tries = 0; tries < 8 && !improved; ++tries) {
            // Parameters at a bound the step would cross stay there; solve for the others.
            std::vector<bool> free(static_cast<std::size_t>(n));
            for (std::size_t j = 0; j < free.size(); ++j) free[j] = out.held[j] == kFitted;
            Eigen::VectorXd delta = Eigen::VectorXd::Zero(n);
            for (int pass = 0; pass < 3; ++pass) {
                std::vector<Eigen::Index> idx;
                for (Eigen::Index j = 0; j < n; ++j)
                    if (free[static_cast<std::size_t>(j)]) idx.push_back(j);
                const auto k = static_cast<Eigen::Index>(idx.size());
                Eigen::MatrixXd A(k, k);
                Eigen::VectorXd b(k);
                for (Eigen::Index a = 0; a < k; ++a) {
                    b(a) = -g(idx[static_cast<std::size_t>(a)]);
                    for (Eigen::Index c = 0; c < k; ++c)
                        A(a, c) = JtJ(idx[static_cast<std::size_t>(a)], idx[static_cast<std::size_t>(c)]);
                    const auto ja = idx[static_cast<std::size_t>(a)];
                    A(a, a) += W(ja) + mu * (JtJ(ja, ja) + W(ja));
                }
                const Eigen::VectorXd d = k > 0 ? Eigen::VectorXd(A.ldlt().solve(b)) : Eigen::VectorXd();
                delta.setZero();
                bool pinned = false;
                for (Eigen::Index a = 0; a < k; ++a) {
                    const auto j = idx[static_cast<std::size_t>(a)];
                    const auto& p = params[static_cast<std::size_t>(j)];
                    const double xj = x[static_cast<std::size_t>(j)];
                    delta(j) = d(a);
                    if ((xj <= p.lower && d(a) < 0) || (xj >= p.upper && d(a) > 0)) {
                        free[static_cast<std::size_t>(j)] = false;
                        pinned = true;
                    }
                }
                if (!pinned) break;
            }
            auto next = x;
            for (std::size_t j = 0; j < params.size(); ++j)
                next[j] = free[j] ? clamp_round(params[j], x[j] + delta(static_cast<Eigen::Index>(j))) : x[j];
            if (next == x) break; // the step rounds to nothing: converged
            Evaluated e = evaluate(next);
            if (e.cost < cur.cost) {
                const double gain = cur.cost - e.cost;
                x = std::move(next);
                cur = std::move(e);
                mu = std::max(mu / 3, 1e-9);
                improved = true;
                if (gain <= 1e-12 * std::max(cur.cost, 1.0)) it = options.max_iterations; // no more to gain
            } else {
                mu = std::max(mu * 4, 1e-3);
            }
        }
        if (!improved) break;
    }
    out.values = x;
    out.residuals = cur.residuals;
    return out;
}

} // namespace npusim::harness
