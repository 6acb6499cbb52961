#pragma once
// Programmer errors abort with file and line in every build type; operating
// errors (bad input, a Redis reply) are values, never assertions.
#include <cstdio>
#include <cstdlib>

#define LS_ASSERT(cond)                                                                       \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            std::fprintf(stderr, "%s:%d: assertion failed: %s\n", __FILE__, __LINE__, #cond); \
            std::abort();                                                                     \
        }                                                                                     \
    } while (0)
