#include "support/Passthrough.hpp"

#include <algorithm>

namespace npusim::test {

using namespace npusim::iron;

void copy_one(F in, F out) {
    auto a = in.acquire(1);
    auto b = out.acquire(1);
    std::copy_n(a.data(), std::min(a.single().bytes(), b.single().bytes()), b.data());
    in.release(1);
    out.release(1);
}

void acquire_release(F in, F out) {
    auto a = in.acquire(1);
    auto b = out.acquire(1);
    (void)a;
    (void)b;
    in.release(1);
    out.release(1);
}

PassBody kernel_body(Kernel k) {
    return [k = std::move(k)](F in, F out) {
        auto a = in.acquire(1);
        auto b = out.acquire(1);
        k(a, b);
        in.release(1);
        out.release(1);
    };
}

void fill_drain(RuntimeData a, RuntimeData b, F in, F out) {
    in.fill(a);
    out.drain(b, {.wait = true});
}

Program passthrough(const Passthrough& p) {
    const TensorType out_type = p.out_type.value_or(p.type);
    ObjectFifo in(p.type, std::string(p.in_name), p.depth, p.in),
        out(out_type, std::string(p.out_name), p.depth, p.out);
    const auto worker = [&]() {
        if (p.buffers.empty())
            return Worker([body = p.body](F i, F o) { body(i, o); }, fn_args(in.cons(p.in_cons), out.prod(p.out_prod)),
                          p.worker);
        return Worker([body = p.body](F i, F o, const std::vector<Buffer>&) { body(i, o); },
                      fn_args(in.cons(p.in_cons), out.prod(p.out_prod), p.buffers), p.worker);
    }();
    TensorType host = p.type, out_host = out_type;
    host.shape = {p.host_elements ? p.host_elements : p.type.elements() * 4};
    out_host.shape = {p.out_host_elements ? p.out_host_elements
                      : p.host_elements   ? p.host_elements
                                          : out_type.elements() * 4};
    Runtime rt(p.seq, fn_args(host, out_host, in.prod(p.in_prod), out.cons(p.out_cons)));
    if (p.spec) return Program(*p.spec, rt, {worker}, std::string(p.program));
    return Program(std::string(p.device), rt, {worker}, std::string(p.program));
}

} // namespace npusim::test
