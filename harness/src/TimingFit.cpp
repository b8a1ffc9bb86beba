#include "npusim/harness/TimingFit.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
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

/// The condition number of two unit columns at an angle whose sine is `sine` (their Gram matrix
/// has the eigenvalues 1 +- cos, so it is sqrt((1 + cos) / (1 - cos)) = (1 + cos) / sine): 1 for
/// orthogonal columns, infinite for parallel ones (below 1e-9: a column the others give exactly).
double collinear_condition(double sine) {
    if (sine < 1e-9) return std::numeric_limits<double>::infinity();
    return (1 + std::sqrt(std::max(0.0, 1 - sine * sine))) / sine;
}

struct Evaluated {
    std::vector<double> residuals;
    double cost = 0;
};

/// Which parameters the observations can tell apart, from the Jacobian at the start: in order of
/// how much they move the observations (columns scaled by each parameter's scale), a parameter is
/// fitted when its column has a part of at least `separable_fraction` of its length outside the
/// span of those chosen before it. Otherwise it is one degree of freedom with the chosen
/// parameters: held at its start (out.held: the chosen parameter that carries most of its effect;
/// out.condition: the condition number of the column and its projection on the span, each scaled to
/// unit length; infinite when the span gives it exactly), so the fit moves the combination through
/// the more influential ones instead of splitting it at random. kNoEffect when nothing moves with it.
/// (Collinearity that shows only at the fitted values is found after the fit: settle_combinations.)
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
        // The column's angle to the span of the chosen ones, as the condition number of the pair
        // it forms with its projection there.
        const double outside = std::min(1.0, v.norm() / len);
        const bool in_span = outside < options.separable_fraction;
        const double condition = collinear_condition(outside);
        if (!chosen.empty() && in_span) {
            // One degree of freedom with the chosen parameter that carries most of its effect (of
            // its projection on the chosen columns, by least squares).
            Eigen::MatrixXd S(C.rows(), static_cast<Eigen::Index>(chosen.size()));
            for (std::size_t k = 0; k < chosen.size(); ++k) S.col(static_cast<Eigen::Index>(k)) = C.col(chosen[k]);
            const Eigen::VectorXd a = S.colPivHouseholderQr().solve(c);
            std::size_t like = 0;
            for (std::size_t k = 1; k < chosen.size(); ++k)
                if (std::abs(a(static_cast<Eigen::Index>(k))) * S.col(static_cast<Eigen::Index>(k)).norm() >
                    std::abs(a(static_cast<Eigen::Index>(like))) * S.col(static_cast<Eigen::Index>(like)).norm())
                    like = k;
            out.held[static_cast<std::size_t>(j)] = static_cast<int>(chosen[like]);
            out.condition[static_cast<std::size_t>(j)] = condition;
            continue;
        }
        basis.push_back(v / v.norm());
        chosen.push_back(j);
    }
}

/// After the fit: the Jacobian at the fitted values, its columns of the fitted parameters scaled to
/// unit length; each right singular vector whose singular value is below the largest over
/// `max_condition` is a direction the observations do not see. The parameters with a weight of at
/// least 0.25 in it are one combined degree of freedom (out.combined): the observations fix a
/// combination of them, and how the fit split it came from noise and the path it took. So the
/// fitted values lose their component along each such direction, measured in the prior's metric
/// ((value - prior) / scale): along it they keep the table's split, and only what the
/// observations determine changes. The result is kept if its cost (one more evaluation) is not
/// worse than 1% above the fit's.
void settle_combinations(const std::vector<FitParameter>& params, const ResidualFunction& residuals,
                         const FitOptions& options, std::vector<double>& x, Evaluated& cur,
                         const std::function<Evaluated(const std::vector<double>&)>& evaluate, FitOutcome& out) {
    std::vector<Eigen::Index> fitted;
    for (std::size_t j = 0; j < params.size(); ++j)
        if (out.held[j] == kFitted) fitted.push_back(static_cast<Eigen::Index>(j));
    if (fitted.size() < 2 || !(options.max_condition > 0)) return;
    const auto m = static_cast<Eigen::Index>(cur.residuals.size());
    const auto k = static_cast<Eigen::Index>(fitted.size());
    Eigen::MatrixXd U(m, k);
    Eigen::VectorXd norms(k);
    for (Eigen::Index a = 0; a < k; ++a) {
        const auto j = static_cast<std::size_t>(fitted[static_cast<std::size_t>(a)]);
        const auto& p = params[j];
        double h = p.integer ? std::max(1.0, std::round(0.05 * std::max(std::abs(x[j]), p.scale)))
                             : 0.02 * std::max(std::abs(x[j]), p.scale);
        if (x[j] + h > p.upper) h = -h;
        auto xh = x;
        xh[j] = x[j] + h;
        const auto rh = residuals(xh);
        ++out.evaluations;
        for (Eigen::Index i = 0; i < m; ++i)
            U(i, a) = (rh[static_cast<std::size_t>(i)] - cur.residuals[static_cast<std::size_t>(i)]) / h * p.scale;
        norms(a) = U.col(a).norm();
        if (norms(a) > 0) U.col(a) /= norms(a);
    }
    if ((norms.array() == 0).any()) return; // a parameter pinned at a bound: leave the fit as it is
    const Eigen::JacobiSVD<Eigen::MatrixXd> svd(U, Eigen::ComputeFullV);
    const auto& sv = svd.singularValues();
    const double top = sv.size() ? sv(0) : 0;
    std::vector<Eigen::VectorXd> unseen; // directions in the prior's metric, orthonormal
    for (Eigen::Index i = 0; i < k; ++i) {
        const double si = i < sv.size() ? sv(i) : 0.0;
        if (top <= 0 || si * options.max_condition >= top) continue;
        const Eigen::VectorXd v = svd.matrixV().col(i);
        std::vector<int> group;
        for (Eigen::Index a = 0; a < k; ++a)
            if (std::abs(v(a)) >= 0.25) group.push_back(static_cast<int>(fitted[static_cast<std::size_t>(a)]));
        if (group.size() < 2) continue;
        out.combined.push_back(group);
        out.combined_condition.push_back(si > 0 ? top / si : std::numeric_limits<double>::infinity());
        // U v ~ 0 with U's columns C_j / |C_j|: the direction in (value - prior) / scale is v_j / |C_j|.
        Eigen::VectorXd d = v.cwiseQuotient(norms);
        for (const auto& q : unseen) d -= q.dot(d) * q;
        if (d.norm() > 0) unseen.push_back(d / d.norm());
    }
    if (unseen.empty()) return;
    Eigen::VectorXd z(k);
    for (Eigen::Index a = 0; a < k; ++a) {
        const auto& p = params[static_cast<std::size_t>(fitted[static_cast<std::size_t>(a)])];
        z(a) = (x[static_cast<std::size_t>(fitted[static_cast<std::size_t>(a)])] - p.prior) / p.scale;
    }
    for (const auto& q : unseen) z -= q.dot(z) * q;
    auto next = x;
    for (Eigen::Index a = 0; a < k; ++a) {
        const auto j = static_cast<std::size_t>(fitted[static_cast<std::size_t>(a)]);
        next[j] = clamp_round(params[j], params[j].prior + z(a) * params[j].scale);
    }
    if (next == x) return;
    Evaluated e = evaluate(next);
    if (e.cost <= cur.cost * 1.01 + 1e-9) {
        x = std::move(next);
        cur = std::move(e);
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
    out.condition.assign(params.size(), 0.0);
    std::function<Evaluated(const std::vector<double>&)> evaluate = [&](const std::vector<double>& x) {
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
    settle_combinations(params, residuals, options, x, cur, evaluate, out);
    out.values = x;
    out.residuals = cur.residuals;
    return out;
}

} // namespace npusim::harness
