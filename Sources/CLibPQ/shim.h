// The system libpq from Debian's libpq-dev (no vendored source): PostgreSQL's C client.
// NB: its declarations only; nothing links libpq. Persistence loads it when a PostgreSQL store
// opens (LibPQ.swift); the test support and the benchmarks, which call it directly, link it.
#include <postgresql/libpq-fe.h>
