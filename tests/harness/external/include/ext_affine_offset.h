// Found through npusim_add_external_function(... INCLUDE_DIRS external/include).
#pragma once
#define EXT_OFFSET 5
