/* The Swift runtime's cached thread id, which a forked child must forget.
 *
 * Swift's once (the lock around every lazy global's first use; under ThreadSanitizer, around every use) is a futex
 * lock whose word holds its owner's thread id (FUTEX_LOCK_PI), read from a per-thread cache in libswiftCore
 * (`ulock_get_tid`, swift/Threading/Impl/Linux/ulock.h). fork() copies the forking thread's cache into the child's
 * first thread, where it still names the parent's thread. If that thread then holds such a lock while another
 * thread of the child waits on it, the kernel ties the wait to the parent's thread, and the unlock, made in the
 * stale id's name, is refused: both threads of the child hang for ever. A child that starts an SDK meets exactly
 * this (its first thread and the SDK's threads run Swift code at once).
 *
 * So the fork gate's child handler sets the cache back to 0, which the runtime reads as "not known yet" and fills
 * with the thread's real id. The cache is a thread-local that only a file's symbol table names (not its dynamic
 * one), in each runtime the process has: libswiftCore.so, and this library itself when it carries the runtime
 * (`make dist` links it in). It is looked up once, by reading those files. Where it is not found (a stripped
 * file), or does not hold the forking thread's id or 0 when checked, nothing is written. */
#ifndef BLINKENGAGE_SWIFT_TID_H
#define BLINKENGAGE_SWIFT_TID_H
#include <stdint.h>

#if defined(__linux__) && defined(__GLIBC__) && defined(__LP64__)
#include <elf.h>
#include <fcntl.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* The calling thread's id, as the runtime's cache holds it. glibc (2.30 and later) declares gettid only under
 * _GNU_SOURCE: declared here as it does. Not syscall(): the portable build keeps that for Linux's platform layer
 * alone, and it carries this file too, since on Linux it runs on the same Swift runtime. */
extern pid_t gettid(void);

/* glibc's own: the address of a module's thread-local for the calling thread (no header declares it). */
typedef struct be_tls_index {
    unsigned long module;
    unsigned long offset;
} be_tls_index;
extern void *__tls_get_addr(be_tls_index *index);

/* dl_iterate_phdr and the head of its record, which glibc declares only under _GNU_SOURCE (under which its
 * fd_set disagrees with Swift's Glibc module, CPlatform/platform.h): declared here as glibc does. The callback's
 * `size` says how much of the record there is. */
struct dl_phdr_info;
extern int dl_iterate_phdr(int (*callback)(struct dl_phdr_info *, size_t, void *), void *data);
typedef struct be_dl_phdr_info {
    Elf64_Addr dlpi_addr;
    const char *dlpi_name;
    const Elf64_Phdr *dlpi_phdr;
    Elf64_Half dlpi_phnum;
    unsigned long long dlpi_adds;
    unsigned long long dlpi_subs;
    size_t dlpi_tls_modid;
    void *dlpi_tls_data;
} be_dl_phdr_info;

#define BE_SWIFT_TID_RUNTIMES 2 /* libswiftCore.so, and a runtime linked into this library */

typedef struct be_swift_tid {
    int looked;                                   /* the lookup ran (found or not) */
    int count;                                    /* caches found */
    be_tls_index index[BE_SWIFT_TID_RUNTIMES];
} be_swift_tid;

#define BE_SWIFT_TID_SYMBOL "_ZZN5swift14threading_impl5linux13ulock_get_tidEvE3tid"

/* The modules that may hold a runtime: those with thread-locals named libswiftCore.so or holding `anchor` (this
 * library's own code). */
typedef struct be_swift_modules {
    const void *anchor;
    int count;
    struct {
        char path[4096];
        size_t module;
        Elf64_Phdr tls; /* the module's thread-local segment as loaded */
    } found[BE_SWIFT_TID_RUNTIMES];
} be_swift_modules;

/* The thread-local segment among `count` program headers (a loaded module's, or a file's), or NULL. */
static inline const Elf64_Phdr *be_swift_tid_tls_segment(const Elf64_Phdr *segments, size_t count) {
    size_t i;
    for (i = 0; i < count; i++) {
        if (segments[i].p_type == PT_TLS) return &segments[i];
    }
    return NULL;
}

static inline int be_swift_tid_holds(const be_dl_phdr_info *info, const void *address) {
    Elf64_Half i;
    for (i = 0; i < info->dlpi_phnum; i++) {
        const Elf64_Phdr *segment = &info->dlpi_phdr[i];
        uintptr_t start = (uintptr_t)info->dlpi_addr + segment->p_vaddr;
        if (segment->p_type == PT_LOAD && (uintptr_t)address >= start && (uintptr_t)address - start < segment->p_memsz)
            return 1;
    }
    return 0;
}

static inline int be_swift_tid_find_modules(struct dl_phdr_info *record, size_t size, void *data) {
    static const char suffix[] = "/libswiftCore.so";
    const be_dl_phdr_info *info = (const be_dl_phdr_info *)record;
    be_swift_modules *modules = data;
    const char *name;
    const Elf64_Phdr *tls;
    size_t length;
    int named;
    if (size < offsetof(be_dl_phdr_info, dlpi_tls_modid) + sizeof info->dlpi_tls_modid) return 1;
    if (info->dlpi_tls_modid == 0 || modules->count == BE_SWIFT_TID_RUNTIMES) return 0;
    name = info->dlpi_name && *info->dlpi_name ? info->dlpi_name : "/proc/self/exe"; /* "": the program */
    length = strlen(name);
    named = length >= sizeof suffix - 1 && memcmp(name + length - (sizeof suffix - 1), suffix, sizeof suffix - 1) == 0;
    if ((!named && !be_swift_tid_holds(info, modules->anchor)) || length >= sizeof modules->found[0].path ||
        (tls = be_swift_tid_tls_segment(info->dlpi_phdr, info->dlpi_phnum)) == NULL)
        return 0;
    modules->found[modules->count].tls = *tls;
    memcpy(modules->found[modules->count].path, name, length + 1);
    modules->found[modules->count].module = info->dlpi_tls_modid;
    modules->count++;
    return 0;
}

/* Whether the ELF file at `base` (`size` bytes) has the thread-local segment `loaded` has: a file replaced since it
 * was loaded (an upgrade in place) most likely has not, and is not believed. */
static inline int be_swift_tid_same_tls(const unsigned char *base, size_t size, const Elf64_Phdr *loaded) {
    const Elf64_Ehdr *header = (const Elf64_Ehdr *)base;
    const Elf64_Phdr *tls;
    if (header->e_phentsize != sizeof(Elf64_Phdr) || header->e_phoff > size ||
        (size - header->e_phoff) / sizeof(Elf64_Phdr) < header->e_phnum)
        return 0;
    tls = be_swift_tid_tls_segment((const Elf64_Phdr *)(base + header->e_phoff), header->e_phnum);
    return tls && tls->p_vaddr == loaded->p_vaddr && tls->p_memsz == loaded->p_memsz && tls->p_filesz == loaded->p_filesz;
}

/* The offset of the thread-local `name` (4 bytes) in the TLS block of the ELF file at `base` (`size` bytes long),
 * whose thread-local segment as loaded is `tls`; 0 with *found = 0 when the file is not a 64-bit ELF, has another
 * thread-local segment, or has no such symbol inside it. Every offset and count read from the file is checked. */
static inline uint64_t be_swift_tid_offset(const unsigned char *base, size_t size, const Elf64_Phdr *tls, const char *name,
                                           int *found) {
    const Elf64_Ehdr *header = (const Elf64_Ehdr *)base;
    const Elf64_Shdr *sections;
    const size_t length = strlen(name); /* once, not per symbol of tables of thousands */
    uint16_t i;
    *found = 0;
    if (size < sizeof *header || memcmp(header->e_ident, ELFMAG, SELFMAG) != 0 || header->e_ident[EI_CLASS] != ELFCLASS64 ||
        header->e_shentsize != sizeof(Elf64_Shdr) || header->e_shoff > size ||
        (size - header->e_shoff) / sizeof(Elf64_Shdr) < header->e_shnum || !be_swift_tid_same_tls(base, size, tls))
        return 0;
    sections = (const Elf64_Shdr *)(base + header->e_shoff);
    for (i = 0; i < header->e_shnum; i++) {
        const Elf64_Shdr *table = &sections[i], *strings;
        uint64_t count, j;
        if (table->sh_type != SHT_SYMTAB || table->sh_link >= header->e_shnum || table->sh_entsize != sizeof(Elf64_Sym) ||
            table->sh_offset > size || size - table->sh_offset < table->sh_size)
            continue;
        strings = &sections[table->sh_link];
        if (strings->sh_offset > size || size - strings->sh_offset < strings->sh_size) continue;
        count = table->sh_size / sizeof(Elf64_Sym);
        for (j = 0; j < count; j++) {
            const Elf64_Sym *symbol = (const Elf64_Sym *)(base + table->sh_offset) + j;
            if (ELF64_ST_TYPE(symbol->st_info) != STT_TLS || symbol->st_size != 4 || symbol->st_name >= strings->sh_size ||
                tls->p_memsz < 4 || symbol->st_value > tls->p_memsz - 4)
                continue;
            /* The name with its NUL, inside the string table. */
            if (strings->sh_size - symbol->st_name > length &&
                memcmp(base + strings->sh_offset + symbol->st_name, name, length + 1) == 0) {
                *found = 1;
                return symbol->st_value;
            }
        }
    }
    return 0;
}

/* The cache's offset in the file at `path`, whose thread-local segment as loaded is `tls`: 1 when found. */
static inline int be_swift_tid_read(const char *path, const Elf64_Phdr *tls, uint64_t *offset) {
    struct stat status;
    void *mapped;
    int descriptor = open(path, O_RDONLY | O_CLOEXEC), found = 0;
    if (descriptor < 0) return 0;
    if (fstat(descriptor, &status) == 0 && status.st_size > 0) {
        mapped = mmap(NULL, (size_t)status.st_size, PROT_READ, MAP_PRIVATE, descriptor, 0);
        if (mapped != MAP_FAILED) {
            *offset = be_swift_tid_offset(mapped, (size_t)status.st_size, tls, BE_SWIFT_TID_SYMBOL, &found);
            munmap(mapped, (size_t)status.st_size);
        }
    }
    close(descriptor);
    return found;
}

/* Looks the caches up once (the caller serialises). */
static inline void be_swift_tid_look_up(be_swift_tid *tid) {
    be_swift_modules modules;
    uint64_t offset = 0;
    int i;
    if (tid->looked) return;
    tid->looked = 1;
    memset(&modules, 0, sizeof modules);
    modules.anchor = (const void *)be_swift_tid_look_up;
    dl_iterate_phdr(be_swift_tid_find_modules, &modules);
    for (i = 0; i < modules.count; i++) {
        if (!be_swift_tid_read(modules.found[i].path, &modules.found[i].tls, &offset)) continue;
        tid->index[tid->count].module = modules.found[i].module;
        tid->index[tid->count].offset = offset;
        tid->count++;
    }
}

/* The calling thread's cache in runtime `i`, when it holds this thread's id or 0; else NULL. */
static inline int32_t *be_swift_tid_slot(be_swift_tid *tid, int i) {
    int32_t *slot, value;
    if (i >= tid->count) return NULL;
    slot = __tls_get_addr(&tid->index[i]);
    if (!slot) return NULL;
    value = __atomic_load_n(slot, __ATOMIC_RELAXED);
    return value == 0 || value == (int32_t)gettid() ? slot : NULL;
}

#else /* the cache is Linux's (glibc, 64-bit here): elsewhere nothing is looked up or cleared */
#define BE_SWIFT_TID_RUNTIMES 2
typedef struct be_swift_tid {
    int looked;
} be_swift_tid;
static inline void be_swift_tid_look_up(be_swift_tid *tid) { tid->looked = 1; }
static inline int32_t *be_swift_tid_slot(be_swift_tid *tid, int i) { (void)tid; (void)i; return (int32_t *)0; }
#endif

#endif
