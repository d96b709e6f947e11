// The system libpq from Debian's libpq-dev (no vendored source): PostgreSQL's C client.
#include <libpq-fe.h>
