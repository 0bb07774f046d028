#!/usr/bin/env bash
# Writes DIR/nginx.conf for the early-data measurements (scripts/early-data-check.sh, scripts/netns-roundtrips.sh):
# nginx over TLS 1.3 with the certificate in CERT_DIR (the sandbox's ca_signed_context), early data on, no kept
# connection (every request opens one), listening as LISTEN ("ADDRESS:PORT ssl [fastopen=16]"), and logging
# "URI STATUS early=$ssl_early_data resumed=$ssl_session_reused" to DIR/access.log. It serves the fixture image as
# /img/{a,b,c,d}.png, and as /too-early/e.png, which answers 425 Too Early (RFC 8470) to early data.
#   scripts/early-data-nginx.sh DIR LISTEN CERT_DIR
set -euo pipefail
dir=${1:?usage: scripts/early-data-nginx.sh DIR LISTEN CERT_DIR} listen=${2:?} certificates=${3:?}
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$dir/www/img" "$dir/www/too-early"
for name in a b c d; do cp "$top/sandbox/fixtures/images/offer.png" "$dir/www/img/$name.png"; done
cp "$top/sandbox/fixtures/images/offer.png" "$dir/www/too-early/e.png"
cat > "$dir/nginx.conf" <<NGINX
worker_processes 1;
daemon off;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 64; }
http {
    log_format early '\$uri \$status early=\$ssl_early_data resumed=\$ssl_session_reused';
    access_log $dir/access.log early;
    client_body_temp_path $dir/body; proxy_temp_path $dir/proxy; fastcgi_temp_path $dir/fastcgi;
    uwsgi_temp_path $dir/uwsgi; scgi_temp_path $dir/scgi;
    types { image/png png; }
    keepalive_timeout 0;
    server {
        listen $listen;
        ssl_certificate $certificates/cert.pem;
        ssl_certificate_key $certificates/key.pem;
        ssl_protocols TLSv1.3;
        ssl_early_data on;
        location /img/ { root $dir/www; }
        location /too-early/ {
            if (\$ssl_early_data) { return 425; }
            root $dir/www;
        }
    }
}
NGINX
