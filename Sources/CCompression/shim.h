// zlib (gzip, deflate) and brotli, for tags served with Content-Encoding (Debian: zlib1g-dev, libbrotli-dev).
#include <zlib.h>
#include <brotli/decode.h>
#include <brotli/encode.h>
