/* The proxy protocol's framing (mpqemu.h). */
#include "mpqemu.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

enum { HDR = 16 };

/* Read exactly n bytes (after the header: no descriptors travel here). */
static int read_all(int sock, void *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = read(sock, (char *)buf + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return r < 0 ? -1 : 0;
        got += (size_t)r;
    }
    return 1;
}

int mpqemu_recv(int sock, mpqemu_msg *m, char *err, size_t errlen)
{
    uint8_t hdr[HDR];
    union {
        char buf[CMSG_SPACE(sizeof(int) * MPQEMU_MAX_FDS)];
        struct cmsghdr align;
    } ctl;
    struct iovec iov = { hdr, HDR };
    struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf,
                         .msg_controllen = sizeof ctl.buf };
    memset(m, 0, sizeof *m);
    ssize_t r;
    do
        r = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);
    while (r < 0 && errno == EINTR);
    if (r == 0)
        return 0;
    if (r < 0) {
        snprintf(err, errlen, "reading from QEMU's proxy socket: %s", strerror(errno));
        return -1;
    }
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c))
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
            int n = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
            for (int i = 0; i < n; i++) {
                int fd;
                memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
                if (m->nfds < MPQEMU_MAX_FDS)
                    m->fds[m->nfds++] = fd;
                else
                    close(fd);
            }
        }
    if ((size_t)r < HDR && read_all(sock, hdr + r, HDR - (size_t)r) != 1) {
        mpqemu_close_fds(m);
        snprintf(err, errlen, "QEMU's proxy socket: a message header cut short");
        return -1;
    }
    memcpy(&m->cmd, hdr, 4);
    memcpy(&m->size, hdr + 8, 8);
    if (m->size > MPQEMU_MAX_PAYLOAD) {
        mpqemu_close_fds(m);
        snprintf(err, errlen, "QEMU's proxy socket: command %d with a %llu-byte payload (at most %d expected)",
                 m->cmd, (unsigned long long)m->size, MPQEMU_MAX_PAYLOAD);
        return -1;
    }
    if (m->size && read_all(sock, m->data.bytes, m->size) != 1) {
        mpqemu_close_fds(m);
        snprintf(err, errlen, "QEMU's proxy socket: command %d's payload cut short", m->cmd);
        return -1;
    }
    return 1;
}

int mpqemu_ret(int sock, uint64_t value, int with_value, char *err, size_t errlen)
{
    uint8_t msg[HDR + 8] = { 0 };
    int32_t cmd = MPQEMU_RET;
    uint64_t size = with_value ? 8 : 0;
    memcpy(msg, &cmd, 4);
    memcpy(msg + 8, &size, 8);
    memcpy(msg + HDR, &value, 8);
    size_t n = HDR + (size_t)size, done = 0;
    while (done < n) {
        ssize_t w = write(sock, msg + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            snprintf(err, errlen, "writing to QEMU's proxy socket: %s", w < 0 ? strerror(errno) : "closed");
            return -1;
        }
        done += (size_t)w;
    }
    return 0;
}

void mpqemu_close_fds(mpqemu_msg *m)
{
    for (int i = 0; i < m->nfds; i++)
        close(m->fds[i]);
    m->nfds = 0;
}
