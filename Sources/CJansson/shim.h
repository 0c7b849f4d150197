// The one header of libjansson that bidi-lsp uses (Debian: libjansson-dev).
#include <jansson.h>
