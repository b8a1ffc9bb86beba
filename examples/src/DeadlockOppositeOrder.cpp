// deadlock_opposite_order: a request/reply pair of fifos between two workers on neighbouring tiles.
// The client takes a request object (A) and waits for the reply (B) before it releases the
// request; the server takes its reply object (B) first and only then waits for a request (A).
// Each holds what the other waits for. Case: lock_cycle.
#include "DeadlockCatalog.hpp"

namespace npusim::examples {

using namespace hang;

// Shared with deadlock_opposite_order_dma: the server on `server_tile`.
DesignInstance opposite_order_design(const model::DeviceSpec& dev, Tile server_tile, std::uint64_t seed,
                                     const std::string& name) {
    ObjectFifo in(object_type(), "in"), out(object_type(), "out");
    ObjectFifo request(object_type(), "request", 1), reply(object_type(), "reply", 1);
    Worker client(
        [](ObjectFifoHandle i, ObjectFifoHandle req, ObjectFifoHandle rep, ObjectFifoHandle o) {
            auto x = i.acquire(1);
            auto r = req.acquire(1); // request object taken ...
            copy_words(x, r);
            auto answer = rep.acquire(1); // ... and held while waiting for the reply
            auto y = o.acquire(1);
            copy_words(answer, y);
            req.release(1);
            rep.release(1);
            i.release(1);
            o.release(1);
        },
        fn_args(in.cons(), request.prod(), reply.cons(), out.prod()), {.tile = Tile(0, 2), .name = "client"});
    Worker server(
        [](ObjectFifoHandle rep, ObjectFifoHandle req) {
            auto answer = rep.acquire(1); // the reply slot first ...
            auto q = req.acquire(1); // ... then the request: the opposite order
            copy_words(q, answer);
            req.release(1);
            rep.release(1);
        },
        fn_args(reply.prod(), request.cons()), {.tile = server_tile, .name = "server"});
    Runtime rt(fill_then_drain(), fn_args(objects_type(2), objects_type(2), in.prod(), out.cons()));
    return catalog_instance(
        Program(dev, rt, {client, server}, name), 2, 2, [](std::int64_t k) { return k; }, seed, name);
}

DesignSpec make_deadlock_opposite_order() {
    auto s = catalog_spec("deadlock_opposite_order",
                          "hangs: client and server take a request/reply fifo pair in opposite orders (shared memory)");
    s.build = [](const model::DeviceSpec& dev, const Params&, const BuildOptions& o) {
        return opposite_order_design(dev, Tile(0, 3), o.seed, "deadlock_opposite_order");
    };
    return s;
}

NPUSIM_REGISTER_DESIGN(make_deadlock_opposite_order, 520);

} // namespace npusim::examples
