/* A host-supplied transport over plain sockets (be_config_set_http_transport), for the C host tests: each
 * request runs on a thread of its own, HTTP/1.1 with "Connection: close", http URLs of IPv4 hosts only (what
 * the sandbox serves). The sockets it opens are recorded, so host_transport_scan() can check that every socket
 * of the process is one of them: the SDK itself opened none. */
#ifndef BE_HOST_TRANSPORT_H
#define BE_HOST_TRANSPORT_H

#include <dirent.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>

enum { HOST_MAX_SOCKETS = 1024, HOST_MAX_ANSWER = 16 * 1024 * 1024 };

static pthread_mutex_t host_lock = PTHREAD_MUTEX_INITIALIZER;
static int host_sockets[HOST_MAX_SOCKETS];
static int host_socket_count;
static int host_requests_sent;
/* Sockets the process had before any SDK started (inherited from the test runner), by "socket:[inode]". */
static char host_inherited[64][128];
static int host_inherited_count = -1;

/* A socket recorded as the host's, made under the lock so a scan never sees it unrecorded. */
static int host_open_socket(void) {
    int fd;
    pthread_mutex_lock(&host_lock);
    fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd >= 0 && host_socket_count < HOST_MAX_SOCKETS) host_sockets[host_socket_count++] = fd;
    pthread_mutex_unlock(&host_lock);
    return fd;
}

static void host_close_socket(int fd) {
    int i;
    pthread_mutex_lock(&host_lock);
    for (i = 0; i < host_socket_count; i++) {
        if (host_sockets[i] == fd) {
            host_sockets[i] = host_sockets[--host_socket_count];
            break;
        }
    }
    close(fd);
    pthread_mutex_unlock(&host_lock);
}

/* Whether socket inode `target` ("socket:[N]") is a Unix-domain socket (/proc/net/unix): the portable build's
 * storage-directory watch uses those between processes of one machine; they reach no network. */
static int host_is_unix_socket(const char *target) {
    char line[512];
    unsigned long inode = strtoul(target + 8, NULL, 10);
    int found = 0;
    FILE *table = fopen("/proc/net/unix", "r");
    while (table && !found && fgets(line, sizeof line, table)) {
        unsigned long fields[7];
        char *cursor = line, *end;
        int i;
        for (i = 0; i < 7; i++, cursor = end) {
            while (*cursor == ' ' || *cursor == ':') cursor++;
            fields[i] = strtoul(cursor, &end, i == 6 ? 10 : 16);
            if (end == cursor) break;
        }
        found = i == 7 && fields[6] == inode;
    }
    if (table) fclose(table);
    return found;
}

/* Checks that every network socket in /proc/self/fd is the host transport's (or was there before any SDK
 * started: the first scan, from sandbox_config(), only records those). */
static void host_transport_scan(void) {
    DIR *directory;
    struct dirent *entry;
    int recording;
    pthread_mutex_lock(&host_lock);
    recording = host_inherited_count < 0;
    if (recording) host_inherited_count = 0;
    directory = opendir("/proc/self/fd");
    while (directory && (entry = readdir(directory)) != NULL) {
        char path[300], target[128];
        ssize_t n;
        int fd = atoi(entry->d_name), i, ours = 0;
        if (entry->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "/proc/self/fd/%s", entry->d_name);
        n = readlink(path, target, sizeof target - 1);
        if (n <= 0) continue;
        target[n] = 0;
        if (strncmp(target, "socket:", 7) != 0 || fd == dirfd(directory) || host_is_unix_socket(target)) continue;
        if (recording) {
            if (host_inherited_count < 64) snprintf(host_inherited[host_inherited_count++], 128, "%s", target);
            continue;
        }
        for (i = 0; i < host_socket_count; i++) ours |= host_sockets[i] == fd;
        for (i = 0; i < host_inherited_count; i++) ours |= strcmp(host_inherited[i], target) == 0;
        if (!ours) fprintf(stderr, "socket fd %d (%s) was not opened by the host transport\n", fd, target);
        CHECK(ours);
    }
    if (directory) closedir(directory);
    pthread_mutex_unlock(&host_lock);
}

/* Reads "http://a.b.c.d:port/rest" into its parts; 0 for anything else. */
static int host_parse_url(const char *url, char *host, size_t host_size, int *port, const char **path) {
    const char *start, *colon, *slash;
    if (!url || strncmp(url, "http://", 7) != 0) return 0;
    start = url + 7;
    slash = strchr(start, '/');
    colon = strchr(start, ':');
    if (!colon || (slash && colon > slash) || (size_t)(colon - start) >= host_size) return 0;
    memcpy(host, start, (size_t)(colon - start));
    host[colon - start] = 0;
    *port = atoi(colon + 1);
    *path = slash ? slash : "/";
    return *port > 0;
}

static int host_send_all(int fd, const char *data, size_t size) {
    while (size > 0) {
        ssize_t n = send(fd, data, size, MSG_NOSIGNAL);
        if (n <= 0) return 0;
        data += n;
        size -= (size_t)n;
    }
    return 1;
}

/* One exchange; completes or fails `request` exactly once. */
static void *host_exchange(void *argument) {
    be_http_request *request = argument;
    char host[64], head[8192], *answer = NULL, *lines[128], *body, *cursor, *end;
    const char *path;
    int port, fd = -1, status = 0, count = 0;
    size_t i, used = 0, capacity = 0, length;
    struct sockaddr_in address;
    struct timeval timeout;
    if (!host_parse_url(be_http_request_url(request), host, sizeof host, &port, &path)) {
        be_http_request_fail(request, "the test transport speaks plain http to IPv4 hosts only");
        return NULL;
    }
    length = (size_t)snprintf(head, sizeof head, "%s %s HTTP/1.1\r\nHost: %s:%d\r\nConnection: close\r\n",
                              be_http_request_method(request), path, host, port);
    for (i = 0; i < be_http_request_header_count(request) && length < sizeof head; i++) {
        length += (size_t)snprintf(head + length, sizeof head - length, "%s: %s\r\n", be_http_request_header_name(request, i),
                                   be_http_request_header_value(request, i));
    }
    if (length < sizeof head)
        length += (size_t)snprintf(head + length, sizeof head - length, "Content-Length: %zu\r\n\r\n", be_http_request_body_size(request));
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_port = htons((unsigned short)port);
    timeout.tv_sec = be_http_request_timeout_ms(request) / 1000 + 1;
    timeout.tv_usec = 0;
    fd = host_open_socket();
    if (fd < 0 || inet_pton(AF_INET, host, &address.sin_addr) != 1 ||
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout) != 0 ||
        connect(fd, (struct sockaddr *)&address, sizeof address) != 0 || !host_send_all(fd, head, length) ||
        !host_send_all(fd, be_http_request_body(request), be_http_request_body_size(request))) {
        be_http_request_fail(request, strerror(errno));
        if (fd >= 0) host_close_socket(fd);
        return NULL;
    }
    __atomic_add_fetch(&host_requests_sent, 1, __ATOMIC_SEQ_CST);
    for (;;) { /* the whole answer: the server closes the connection */
        ssize_t n;
        if (used + 65536 > capacity) {
            char *grown = realloc(answer, capacity = capacity ? capacity * 2 : 131072);
            if (!grown || capacity > HOST_MAX_ANSWER) break;
            answer = grown;
        }
        n = recv(fd, answer + used, capacity - used - 1, 0);
        if (n <= 0) break;
        used += (size_t)n;
    }
    host_close_socket(fd);
    if (!answer || used == 0 || (end = strstr((answer[used] = 0, answer), "\r\n\r\n")) == NULL ||
        sscanf(answer, "HTTP/1.%*d %d", &status) != 1) {
        be_http_request_fail(request, "no complete answer");
        free(answer);
        return NULL;
    }
    *end = 0;
    body = end + 4;
    cursor = strstr(answer, "\r\n");
    while (cursor && count < 128) { /* header lines, in place */
        char *next;
        *cursor = 0;
        cursor += 2;
        next = strstr(cursor, "\r\n");
        lines[count++] = cursor;
        cursor = next;
    }
    be_http_request_complete(request, status, (const char *const *)lines, (size_t)count, body,
                             used - (size_t)(body - answer));
    free(answer);
    return NULL;
}

static void host_transport_send(be_http_request *request, void *user_data) {
    pthread_t thread;
    pthread_attr_t attributes;
    (void)user_data;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&thread, &attributes, host_exchange, request) != 0) be_http_request_fail(request, "no thread");
    pthread_attr_destroy(&attributes);
}

#endif
