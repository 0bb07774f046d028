#!/usr/bin/env bash
# The version of the libcurl.so.4 a process loads ("libcurl/8.14.1"): the system's, or the one in DIR.
#   scripts/libcurl-version.sh [DIR]
exec env ${1:+LD_LIBRARY_PATH=$1} python3 -c "import ctypes
curl = ctypes.CDLL('libcurl.so.4')
curl.curl_version.restype = ctypes.c_char_p
print(curl.curl_version().decode().split()[0])"
