/* libidn2, for the one step of WHATWG's host parser that needs Unicode's tables: UTS #46 mapping of a host that is
 * not ASCII. The library is the one Debian's libcurl already loads (ldd libcurl.so.4), so it adds no dependency. */
#ifndef BLINKENGAGE_CIDN2_SHIM_H
#define BLINKENGAGE_CIDN2_SHIM_H
#include <idn2.h>
#endif
