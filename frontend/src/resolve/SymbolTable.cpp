#include "resolve/SymbolTable.hpp"

#include "npusim/model/Error.hpp"

#include <fmt/format.h>
#include <map>

namespace npusim::iron::detail {

namespace {
template <class Items>
void check_unique(const Items& items, const char* what) {
    std::map<std::string, const model::Provenance*> seen;
    for (const auto& it : items) {
        const auto [pos, fresh] = seen.emplace(it.name, &it.prov);
        if (!fresh)
            throw DesignError(fmt::format("{} '{}' of {} clashes with the {} of the same name of {}: redefinition of "
                                          "symbol named '{}' (the toolchain's module verification fails); rename one",
                                          what, it.name, it.prov.describe(), what, pos->second->describe(), it.name));
    }
}
} // namespace

void check_symbol_names(const model::Netlist& net) {
    check_unique(net.buffers, "buffer");
    check_unique(net.locks, "lock");
}

} // namespace npusim::iron::detail
