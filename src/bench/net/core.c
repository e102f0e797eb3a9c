/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Server and client loops of `perflab bench net` (see net.h). The data paths use plain
 * blocking send/recv (as sockperf's and netperf's defaults do), with SO_RCVTIMEO so a
 * silent peer turns into -ETIMEDOUT instead of a hang; every send uses MSG_NOSIGNAL so a
 * vanished peer is an error, not SIGPIPE.
 *
 * Above 800 lines on purpose: each test's server and client ends speak one protocol and
 * stay side by side, with the limits the server checks before it runs one. */
#include "bench/net/net.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench.h"
#include "util/cleanup.h"
#include "util/str.h"

/* ---- small socket helpers ---- */

static void set_timeo(int fd, double seconds)
{
	struct timeval tv = { (time_t)seconds,
			      (suseconds_t)((seconds - (double)(time_t)seconds) * 1e6) };
	if (tv.tv_sec == 0 && tv.tv_usec == 0)
		tv.tv_usec = 1000;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

static int pin_self(int cpu)
{
	if (cpu < 0)
		return 0;
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	int r = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	return -r;
}

/* Returns true when busy polling was refused. */
static bool tcp_opts(int fd, const struct pl_net_req *req, bool tcp)
{
	int one = 1;
	if (tcp && req->nodelay)
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (req->busy_poll) {
		int us = (int)req->busy_poll;
		if (setsockopt(fd, SOL_SOCKET, SO_BUSY_POLL, &us, sizeof(us)) < 0)
			return true;
	}
	return false;
}

static uint64_t tcp_retrans(int fd)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);
	memset(&ti, 0, sizeof(ti));
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) < 0)
		return 0;
	return ti.tcpi_total_retrans;
}

/* Send all of @buf; -ETIMEDOUT when SO_SNDTIMEO expires, -errno otherwise. */
static int send_full(int fd, const void *buf, size_t n)
{
	size_t off = 0;
	while (off < n) {
		ssize_t w = send(fd, (const char *)buf + off, n - off, MSG_NOSIGNAL);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return errno == EAGAIN ? -ETIMEDOUT : -errno;
		}
		off += (size_t)w;
	}
	return 0;
}

/* Receive exactly @n bytes. -ECONNRESET on EOF, -ETIMEDOUT when SO_RCVTIMEO expires
 * (unless @stop is given: then keep waiting until *stop). */
static int recv_full(int fd, void *buf, size_t n, const atomic_int *stop)
{
	size_t off = 0;
	while (off < n) {
		ssize_t r = recv(fd, (char *)buf + off, n - off, 0);
		if (r == 0)
			return -ECONNRESET;
		if (r < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN && stop && !atomic_load(stop))
				continue;
			return errno == EAGAIN ? -ETIMEDOUT : -errno;
		}
		off += (size_t)r;
	}
	return 0;
}

/* Read one control line (up to and including '\n') within @timeout seconds. */
static int read_line(int fd, char *buf, size_t cap, double timeout)
{
	size_t n = 0;
	uint64_t deadline = pl_now_ns() + (uint64_t)(timeout * 1e9);
	while (n + 1 < cap) {
		uint64_t now = pl_now_ns();
		if (now >= deadline)
			return -ETIMEDOUT;
		struct pollfd p = { fd, POLLIN, 0 };
		int pr = poll(&p, 1, (int)((deadline - now) / 1000000u) + 1);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr < 0)
			return -errno;
		if (pr == 0)
			continue;
		ssize_t r = recv(fd, buf + n, 1, 0);
		if (r == 0)
			return -ECONNRESET;
		if (r < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -errno;
		}
		if (buf[n++] == '\n') {
			buf[n] = '\0';
			return (int)n;
		}
	}
	return -EBADMSG; /* longer than a control line */
}

static int send_line(int fd, const char *s)
{
	return send_full(fd, s, strlen(s));
}

static int connect_timeout(const struct sockaddr_storage *ss, socklen_t len, int type,
			   double timeout)
{
	int fd = socket(ss->ss_family, type | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	int r = connect(fd, (const struct sockaddr *)ss, len);
	if (r < 0 && errno == EINPROGRESS) {
		struct pollfd p = { fd, POLLOUT, 0 };
		do
			r = poll(&p, 1, (int)(timeout * 1000) + 1);
		while (r < 0 && errno == EINTR);
		if (r == 0) {
			close(fd);
			return -ETIMEDOUT;
		}
		int err = 0;
		socklen_t el = sizeof(err);
		getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el);
		r = err ? -1 : 0;
		errno = err;
	}
	if (r < 0) {
		int e = errno;
		close(fd);
		return -e;
	}
	int fl = fcntl(fd, F_GETFL);
	fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	set_timeo(fd, timeout);
	return fd;
}

static void set_port(struct sockaddr_storage *ss, int port)
{
	if (ss->ss_family == AF_INET6)
		((struct sockaddr_in6 *)ss)->sin6_port = htons((uint16_t)port);
	else
		((struct sockaddr_in *)ss)->sin_port = htons((uint16_t)port);
}

static int get_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	if (getsockname(fd, (struct sockaddr *)&ss, &len) < 0)
		return -errno;
	return ss.ss_family == AF_INET6 ? ntohs(((struct sockaddr_in6 *)&ss)->sin6_port)
					: ntohs(((struct sockaddr_in *)&ss)->sin_port);
}

int pl_net_addr_parse(const char *s, bool passive, struct sockaddr_storage *ss, socklen_t *len)
{
	char host[256];
	const char *colon;
	if (s[0] == '[') {
		const char *rb = strchr(s, ']');
		if (!rb || rb[1] != ':' || (size_t)(rb - s - 1) >= sizeof(host))
			return -EINVAL;
		memcpy(host, s + 1, (size_t)(rb - s - 1));
		host[rb - s - 1] = '\0';
		colon = rb + 1;
	} else {
		colon = strrchr(s, ':');
		if (!colon || (size_t)(colon - s) >= sizeof(host) || strchr(s, ':') != colon)
			return -EINVAL;
		memcpy(host, s, (size_t)(colon - s));
		host[colon - s] = '\0';
	}
	uint64_t port;
	if (pl_parse_u64(colon + 1, &port) < 0 || port > 65535)
		return -EINVAL;
	memset(ss, 0, sizeof(*ss));
	struct sockaddr_in *a4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)ss;
	if (host[0] == '\0') {
		a4->sin_family = AF_INET;
		a4->sin_addr.s_addr = htonl(passive ? INADDR_ANY : INADDR_LOOPBACK);
		*len = sizeof(*a4);
	} else if (inet_pton(AF_INET, host, &a4->sin_addr) == 1) {
		a4->sin_family = AF_INET;
		*len = sizeof(*a4);
	} else if (inet_pton(AF_INET6, host, &a6->sin6_addr) == 1) {
		a6->sin6_family = AF_INET6;
		*len = sizeof(*a6);
	} else {
		for (const char *p = host; *p; p++)
			if (!(*p == '-' || *p == '.' || (*p >= '0' && *p <= '9') ||
			      ((*p | 0x20) >= 'a' && (*p | 0x20) <= 'z')))
				return -EINVAL;
		struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai = NULL;
		if (getaddrinfo(host, NULL, &hints, &ai) != 0 || !ai)
			return -EADDRNOTAVAIL;
		memcpy(ss, ai->ai_addr, ai->ai_addrlen);
		*len = ai->ai_addrlen;
		freeaddrinfo(ai);
	}
	set_port(ss, (int)port);
	return 0;
}

/* True for an address pl_net_host_addrs() offers: IPv4, or IPv6 not link-local. */
static bool offered(const struct sockaddr *sa)
{
	if (!sa)
		return false;
	if (sa->sa_family == AF_INET)
		return true;
	return sa->sa_family == AF_INET6 &&
	       !IN6_IS_ADDR_LINKLOCAL(&((const struct sockaddr_in6 *)sa)->sin6_addr);
}

int pl_net_host_addrs(char *buf, size_t n)
{
	struct ifaddrs *ifs = NULL;
	if (n)
		buf[0] = '\0';
	if (getifaddrs(&ifs) < 0)
		return -errno;
	size_t len = 0;
	int count = 0;
	for (int fam = 0; fam < 2; fam++) /* IPv4 first: the likelier to be routed */
		for (const struct ifaddrs *i = ifs; i; i = i->ifa_next) {
			if (!(i->ifa_flags & IFF_UP) || (i->ifa_flags & IFF_LOOPBACK) ||
			    !offered(i->ifa_addr) ||
			    i->ifa_addr->sa_family != (fam ? AF_INET6 : AF_INET))
				continue;
			char a[INET6_ADDRSTRLEN];
			const void *src =
				fam ? (const void *)&((struct sockaddr_in6 *)i->ifa_addr)->sin6_addr
				    : (const void *)&((struct sockaddr_in *)i->ifa_addr)->sin_addr;
			if (!inet_ntop(fam ? AF_INET6 : AF_INET, src, a, sizeof(a)))
				continue;
			size_t al = strlen(a) + (len ? 1 : 0);
			if (len + al + 1 > n)
				continue;
			snprintf(buf + len, n - len, "%s%s", len ? " " : "", a);
			len += al;
			count++;
		}
	freeifaddrs(ifs);
	return count;
}

/* True when @a (AF_INET or AF_INET6, network order) lies in the subnet of interface @i. */
static bool on_link(int fam, const unsigned char *a, const struct ifaddrs *i)
{
	if (!(i->ifa_flags & IFF_UP) || !i->ifa_addr || !i->ifa_netmask ||
	    i->ifa_addr->sa_family != fam)
		return false;
	const unsigned char *me, *mask;
	size_t len;
	if (fam == AF_INET) {
		me = (const unsigned char *)&((struct sockaddr_in *)i->ifa_addr)->sin_addr;
		mask = (const unsigned char *)&((struct sockaddr_in *)i->ifa_netmask)->sin_addr;
		len = 4;
	} else {
		me = ((struct sockaddr_in6 *)i->ifa_addr)->sin6_addr.s6_addr;
		mask = ((struct sockaddr_in6 *)i->ifa_netmask)->sin6_addr.s6_addr;
		len = 16;
	}
	for (size_t k = 0; k < len; k++)
		if ((a[k] & mask[k]) != (me[k] & mask[k]))
			return false;
	return true;
}

int pl_net_pick_addr(const char *list, int port, char *out, size_t n)
{
	struct ifaddrs *ifs = NULL;
	if (getifaddrs(&ifs) < 0)
		return -errno;
	char first[INET6_ADDRSTRLEN] = "", pick[INET6_ADDRSTRLEN] = "";
	for (const char *p = list; *p && !pick[0];) {
		size_t l = strcspn(p, " ");
		char a[INET6_ADDRSTRLEN];
		unsigned char bin[16];
		if (l && l < sizeof(a)) {
			memcpy(a, p, l);
			a[l] = '\0';
			int fam = strchr(a, ':') ? AF_INET6 : AF_INET;
			if (inet_pton(fam, a, bin) == 1) {
				if (!first[0])
					snprintf(first, sizeof(first), "%s", a);
				for (const struct ifaddrs *i = ifs; i && !pick[0]; i = i->ifa_next)
					if (on_link(fam, bin, i))
						snprintf(pick, sizeof(pick), "%s", a);
			}
		}
		p += l;
		p += strspn(p, " ");
	}
	freeifaddrs(ifs);
	const char *a = pick[0] ? pick : first;
	if (!a[0])
		return -ENOENT;
	int w = snprintf(out, n, strchr(a, ':') ? "[%s]:%d" : "%s:%d", a, port);
	return w < 0 || (size_t)w >= n ? -ENAMETOOLONG : 0;
}

/* ---- server ---- */

struct pl_net_server {
	int lfd;
	int port;
	struct pl_net_server_opts o;
};

int pl_net_server_open(const char *bind_addr, const struct pl_net_server_opts *o,
		       struct pl_net_server **out)
{
	struct sockaddr_storage ss;
	socklen_t len;
	int r = pl_net_addr_parse(bind_addr, true, &ss, &len);
	if (r < 0)
		return r;
	int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	int one = 1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&ss, len) < 0 || listen(fd, 16) < 0) {
		r = -errno;
		close(fd);
		return r;
	}
	struct pl_net_server *s = pl_xcalloc(1, sizeof(*s));
	s->lfd = fd;
	s->port = get_port(fd);
	s->o = *o;
	*out = s;
	return 0;
}

int pl_net_server_port(const struct pl_net_server *s)
{
	return s->port;
}

bool pl_net_server_loopback_only(const struct pl_net_server *s)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	if (getsockname(s->lfd, (struct sockaddr *)&ss, &len) < 0)
		return false;
	if (ss.ss_family == AF_INET)
		return (ntohl(((struct sockaddr_in *)&ss)->sin_addr.s_addr) >> 24) == 127;
	if (ss.ss_family != AF_INET6)
		return false;
	const struct in6_addr *a = &((struct sockaddr_in6 *)&ss)->sin6_addr;
	return IN6_IS_ADDR_LOOPBACK(a) || (IN6_IS_ADDR_V4MAPPED(a) && a->s6_addr[12] == 127);
}

/* True when @a and @b (sockaddr_in or sockaddr_in6) name the same host, ports aside. */
static bool same_host(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
	if (a->ss_family != b->ss_family)
		return false;
	if (a->ss_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	return a->ss_family == AF_INET6 &&
	       memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
		      &((const struct sockaddr_in6 *)b)->sin6_addr, sizeof(struct in6_addr)) == 0;
}

void pl_net_server_close(struct pl_net_server *s)
{
	if (!s)
		return;
	close(s->lfd);
	free(s);
}

/* One test in progress on the server. */
struct srv_test {
	struct pl_net_req req;
	int dfd; /* data listener (TCP) or socket (UDP) */
	atomic_int stop;
	atomic_int running; /* data threads still going */
	atomic_ullong rx_bytes, rx_msgs, retrans;
	atomic_int cpu;
	double timeout;
	int pin;
	/* the control connection's peer: the only host whose data connections and
	 * datagrams the test takes (others could otherwise join a test or, with spoofed
	 * UDP sources, have the echo sent to a third party) */
	struct sockaddr_storage peer;
	pthread_mutex_t lock;
	int conns[PL_NET_MAX_STREAMS];
	int nconns;
	pthread_t th[PL_NET_MAX_STREAMS];
	int nth;
};

/* Accept one connection, waking every 100 ms to look at the stop flag; gives up after
 * the timeout. */
static int srv_accept(struct srv_test *t)
{
	uint64_t deadline = pl_now_ns() + (uint64_t)(t->timeout * 1e9);
	while (!atomic_load(&t->stop) && pl_now_ns() < deadline) {
		struct pollfd p = { t->dfd, POLLIN, 0 };
		if (poll(&p, 1, 100) <= 0)
			continue;
		struct sockaddr_storage from;
		socklen_t fl = sizeof(from);
		int c = accept4(t->dfd, (struct sockaddr *)&from, &fl, SOCK_CLOEXEC);
		if (c < 0)
			continue;
		if (!same_host(&from, &t->peer)) {
			close(c);
			continue;
		}
		tcp_opts(c, &t->req, true);
		set_timeo(c, 0.1);
		pthread_mutex_lock(&t->lock);
		if (t->nconns < PL_NET_MAX_STREAMS)
			t->conns[t->nconns++] = c;
		pthread_mutex_unlock(&t->lock);
		return c;
	}
	return -ETIMEDOUT;
}

static void srv_conn_done(struct srv_test *t, int c)
{
	atomic_fetch_add(&t->retrans, tcp_retrans(c));
	pthread_mutex_lock(&t->lock);
	for (int i = 0; i < t->nconns; i++)
		if (t->conns[i] == c)
			t->conns[i] = t->conns[--t->nconns];
	pthread_mutex_unlock(&t->lock);
	close(c);
}

static void *srv_thread(void *arg)
{
	struct srv_test *t = arg;
	pin_self(t->pin);
	const struct pl_net_req *q = &t->req;
	size_t bufsz = q->test == PL_NET_TCP_STREAM ? 256 * 1024 : q->size;
	char *buf = pl_xmalloc(bufsz);
	switch (q->test) {
	case PL_NET_TCP_PP: {
		int c = srv_accept(t);
		if (c < 0)
			break;
		while (!atomic_load(&t->stop)) {
			if (recv_full(c, buf, q->size, &t->stop) < 0)
				break;
			atomic_fetch_add(&t->rx_bytes, q->size);
			atomic_fetch_add(&t->rx_msgs, 1);
			if (send_full(c, buf, q->size) < 0)
				break;
		}
		srv_conn_done(t, c);
		break;
	}
	case PL_NET_TCP_STREAM: {
		int c = srv_accept(t);
		if (c < 0)
			break;
		while (!atomic_load(&t->stop)) {
			ssize_t r = recv(c, buf, bufsz, 0);
			if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR))
				break;
			if (r > 0)
				atomic_fetch_add(&t->rx_bytes, (unsigned long long)r);
		}
		srv_conn_done(t, c);
		break;
	}
	case PL_NET_TCP_CRR:
		while (!atomic_load(&t->stop)) {
			int c = srv_accept(t);
			if (c < 0)
				break;
			if (recv_full(c, buf, q->size, &t->stop) == 0) {
				atomic_fetch_add(&t->rx_bytes, q->size);
				atomic_fetch_add(&t->rx_msgs, 1);
				if (send_full(c, buf, q->size) == 0) {
					char x; /* wait for the client's close: it owns TIME_WAIT */
					while (!atomic_load(&t->stop) && recv(c, &x, 1, 0) < 0 &&
					       (errno == EAGAIN || errno == EINTR))
						;
				}
			}
			srv_conn_done(t, c);
		}
		break;
	case PL_NET_UDP_PP:
	case PL_NET_UDP_STREAM:
		while (!atomic_load(&t->stop)) {
			struct sockaddr_storage from;
			socklen_t fl = sizeof(from);
			ssize_t r =
				recvfrom(t->dfd, buf, q->size, 0, (struct sockaddr *)&from, &fl);
			if (r < 0 || !same_host(&from, &t->peer))
				continue;
			atomic_fetch_add(&t->rx_bytes, (unsigned long long)r);
			atomic_fetch_add(&t->rx_msgs, 1);
			if (q->test == PL_NET_UDP_PP)
				sendto(t->dfd, buf, (size_t)r, MSG_NOSIGNAL,
				       (struct sockaddr *)&from, fl);
		}
		break;
	default:
		break;
	}
	int cpu = sched_getcpu();
	int none = -1;
	atomic_compare_exchange_strong(&t->cpu, &none, cpu);
	free(buf);
	atomic_fetch_sub(&t->running, 1);
	return NULL;
}

/* Create the data socket on the control connection's local address, start the threads. */
static int srv_start(struct srv_test *t, int cfd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	if (getsockname(cfd, (struct sockaddr *)&ss, &len) < 0)
		return -errno;
	set_port(&ss, 0);
	bool udp = t->req.test == PL_NET_UDP_PP || t->req.test == PL_NET_UDP_STREAM;
	t->dfd = socket(ss.ss_family, (udp ? SOCK_DGRAM : SOCK_STREAM) | SOCK_CLOEXEC, 0);
	if (t->dfd < 0)
		return -errno;
	if (bind(t->dfd, (struct sockaddr *)&ss, len) < 0 || (!udp && listen(t->dfd, 128) < 0))
		return -errno;
	if (udp) {
		tcp_opts(t->dfd, &t->req, false);
		int big = 4 << 20;
		setsockopt(t->dfd, SOL_SOCKET, SO_RCVBUF, &big, sizeof(big));
		set_timeo(t->dfd, 0.1);
	}
	t->nth = t->req.test == PL_NET_TCP_STREAM ? (int)t->req.streams : 1;
	atomic_store(&t->running, t->nth);
	for (int i = 0; i < t->nth; i++) {
		if (pthread_create(&t->th[i], NULL, srv_thread, t) != 0) {
			atomic_store(&t->stop, 1);
			atomic_fetch_sub(&t->running, t->nth - i);
			t->nth = i;
			return -EAGAIN;
		}
	}
	return get_port(t->dfd);
}

/* Stop the test: wait up to @grace seconds for the threads to end by themselves (TCP
 * readers drain to EOF), then force them out. */
static void srv_stop(struct srv_test *t, double grace)
{
	uint64_t deadline = pl_now_ns() + (uint64_t)(grace * 1e9);
	while (atomic_load(&t->running) > 0 && pl_now_ns() < deadline)
		usleep(1000);
	atomic_store(&t->stop, 1);
	pthread_mutex_lock(&t->lock);
	for (int i = 0; i < t->nconns; i++)
		shutdown(t->conns[i], SHUT_RDWR);
	pthread_mutex_unlock(&t->lock);
	for (int i = 0; i < t->nth; i++)
		pthread_join(t->th[i], NULL);
	if (t->dfd >= 0)
		close(t->dfd);
	t->dfd = -1;
}

static void srv_reject(int fd, const char *why, atomic_ulong *rejected)
{
	char line[PL_NET_LINE_MAX];
	snprintf(line, sizeof(line), "ERR %.200s\n", why);
	send_line(fd, line);
	if (rejected)
		atomic_fetch_add(rejected, 1);
}

static void srv_test_free(struct srv_test *t)
{
	pthread_mutex_destroy(&t->lock);
	free(t);
}
PL_DEFINE_CLEANUP(struct srv_test, srv_test_free, srv_test_free)

/* Serve one control connection whose request @req (one line with its newline) has been
 * read. */
static void srv_session(struct pl_net_server *s, int cfd, const char *req, const atomic_int *stop,
			atomic_ulong *served, atomic_ulong *rejected)
{
	char line[PL_NET_LINE_MAX + 2], why[160];
	int r;
	set_timeo(cfd, s->o.timeout);
	snprintf(line, sizeof(line), "%s", req);
	__attribute__((cleanup(srv_test_freep))) struct srv_test *t = pl_xcalloc(1, sizeof(*t));
	t->dfd = -1;
	atomic_init(&t->cpu, -1);
	pthread_mutex_init(&t->lock, NULL);
	t->timeout = s->o.timeout;
	socklen_t plen = sizeof(t->peer);
	if (getpeername(cfd, (struct sockaddr *)&t->peer, &plen) < 0)
		return;
	if (pl_net_req_parse(line, &t->req, why, sizeof(why)) < 0) {
		char msg[200];
		snprintf(msg, sizeof(msg), "malformed request: %s", why);
		srv_reject(cfd, msg, rejected);
		return;
	}
	if (pl_net_req_check(&t->req, &s->o.limits, why, sizeof(why)) < 0) {
		srv_reject(cfd, why, rejected);
		return;
	}
	t->pin = s->o.pin_ping_only && pl_net_test_is_stream(t->req.test) ? -1 : s->o.cpu;
	int port = srv_start(t, cfd);
	if (port < 0) {
		snprintf(why, sizeof(why), "cannot start the test: %s", strerror(-port));
		srv_reject(cfd, why, rejected);
		srv_stop(t, 0);
		return;
	}
	snprintf(line, sizeof(line), "OK port=%d\n", port);
	if (send_line(cfd, line) < 0) {
		srv_stop(t, 0);
		return;
	}
	/* The client drives the test; we wait for END, a vanished client, a second client
	 * (told we are busy) or a client that overstays its own duration. */
	uint64_t deadline = pl_now_ns() + (uint64_t)((t->req.seconds + 2 * s->o.timeout + 5) * 1e9);
	bool ended = false;
	while (!atomic_load(stop) && pl_now_ns() < deadline) {
		struct pollfd p[2] = { { cfd, POLLIN, 0 }, { s->lfd, POLLIN, 0 } };
		int pr = poll(p, 2, 100);
		if (pr <= 0)
			continue;
		if (p[1].revents & POLLIN) {
			int other = accept4(s->lfd, NULL, NULL, SOCK_CLOEXEC);
			if (other >= 0) {
				set_timeo(other, 1);
				srv_reject(other, "busy: one test at a time, try again", rejected);
				close(other);
			}
		}
		if (p[0].revents) {
			r = read_line(cfd, line, sizeof(line), s->o.timeout);
			ended = r > 0 && strcmp(line, "END\n") == 0;
			break;
		}
	}
	bool udp = t->req.test == PL_NET_UDP_PP || t->req.test == PL_NET_UDP_STREAM;
	srv_stop(t, ended ? (udp || t->req.test == PL_NET_TCP_CRR ? 0.05 : s->o.timeout) : 0);
	if (ended) {
		struct pl_net_done d = { atomic_load(&t->rx_bytes), atomic_load(&t->rx_msgs),
					 atomic_load(&t->cpu), atomic_load(&t->retrans) };
		pl_net_done_format(&d, line, sizeof(line));
		/* counted before the result goes out: a client that has its result can rely on
		 * the count (the loopback test reads it right after) */
		if (served)
			atomic_fetch_add(served, 1);
		send_line(cfd, line);
	}
}

/* Control connections accepted but without a whole request line yet. The serve loop
 * polls all of them with the listener, so whichever client sends its line first is served
 * and an idle connection delays nobody; one that sends no line within the handshake time
 * (--idle-timeout) is told so and closed, as are those waiting when a test starts ("busy",
 * so a real client retries). */
struct srv_pending {
	int fd;
	uint64_t deadline; /* pl_now_ns() by which the request line must be complete */
	size_t len;
	char line[PL_NET_LINE_MAX + 2];
};
#define SRV_MAX_PENDING 64

/* Read what @p's client has sent without blocking. 1 when its line is complete, 0 when
 * more is to come, -errno when the connection is to be dropped (-EBADMSG: too long,
 * -EILSEQ: a NUL byte, which would cut the line short where it is handled as a string). */
static int pending_read(struct srv_pending *p)
{
	while (p->len + 1 < sizeof(p->line)) {
		ssize_t r = recv(p->fd, p->line + p->len, 1, MSG_DONTWAIT);
		if (r == 0)
			return -ECONNRESET;
		if (r < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0
											 : -errno;
		if (p->line[p->len] == '\0')
			return -EILSEQ;
		if (p->line[p->len++] == '\n') {
			p->line[p->len] = '\0';
			return 1;
		}
	}
	return -EBADMSG;
}

int pl_net_server_serve(struct pl_net_server *s, const atomic_int *stop, atomic_ulong *served,
			atomic_ulong *rejected)
{
	struct srv_pending pend[SRV_MAX_PENDING];
	size_t np = 0;
	double hello = s->o.hello > 0 ? s->o.hello : PL_NET_HELLO_S;
	if (s->o.timeout < hello)
		hello = s->o.timeout;
	int ret = 0;
	while (!atomic_load(stop)) {
		struct pollfd p[SRV_MAX_PENDING + 1] = { { s->lfd, POLLIN, 0 } };
		for (size_t i = 0; i < np; i++)
			p[i + 1] = (struct pollfd){ pend[i].fd, POLLIN, 0 };
		int pr = poll(p, np + 1, 100);
		if (pr < 0 && errno != EINTR) {
			ret = -errno;
			break;
		}
		uint64_t now = pl_now_ns();
		int ready = -1; /* the first pending connection with a whole line */
		for (size_t i = 0; pr > 0 && i < np && ready < 0; i++) {
			if (!p[i + 1].revents)
				continue;
			int r = pending_read(&pend[i]);
			if (r > 0)
				ready = (int)i;
			else if (r < 0) {
				const char *why = r == -EBADMSG	 ? "line too long"
						  : r == -EILSEQ ? "non-printable byte 0x00"
								 : NULL;
				if (why) {
					char msg[64];
					snprintf(msg, sizeof(msg), "malformed request: %s", why);
					srv_reject(pend[i].fd, msg, rejected);
				}
				pend[i].deadline = 0; /* dropped below */
			}
		}
		/* drop what timed out or failed (the ready one stays) */
		for (size_t i = 0; i < np;) {
			if ((int)i != ready && now >= pend[i].deadline) {
				if (pend[i].deadline)
					srv_reject(pend[i].fd,
						   "no request within the handshake time",
						   rejected);
				close(pend[i].fd);
				pend[i] = pend[--np];
				if (ready == (int)np)
					ready = (int)i;
				continue;
			}
			i++;
		}
		if (ready >= 0) {
			struct srv_pending me = pend[ready];
			pend[ready] = pend[--np];
			for (size_t i = 0; i < np; i++) { /* one test at a time */
				srv_reject(pend[i].fd, "busy: one test at a time, try again",
					   rejected);
				close(pend[i].fd);
			}
			np = 0;
			srv_session(s, me.fd, me.line, stop, served, rejected);
			close(me.fd);
			continue;
		}
		if (pr <= 0 || !(p[0].revents & POLLIN))
			continue;
		int cfd = accept4(s->lfd, NULL, NULL, SOCK_CLOEXEC);
		if (cfd < 0) {
			if (errno == EINTR || errno == ECONNABORTED || errno == EAGAIN ||
			    errno == EMFILE || errno == ENFILE)
				continue;
			ret = -errno;
			break;
		}
		if (np == SRV_MAX_PENDING) {
			set_timeo(cfd, 1);
			srv_reject(cfd, "busy: too many connections without a request, try again",
				   rejected);
			close(cfd);
			continue;
		}
		pend[np++] = (struct srv_pending){ .fd = cfd,
						   .deadline = now + (uint64_t)(hello * 1e9) };
	}
	for (size_t i = 0; i < np; i++)
		close(pend[i].fd);
	return ret;
}

/* ---- client ---- */

struct cli_stream {
	const struct pl_net_client_opts *o;
	const struct pl_net_req *req;
	struct sockaddr_storage data;
	socklen_t len;
	uint64_t tx_bytes, retrans;
	int err;
	int cpu;
};

static void *cli_stream_thread(void *arg)
{
	struct cli_stream *cs = arg;
	pin_self(cs->o->cpu);
	int fd = connect_timeout(&cs->data, cs->len, SOCK_STREAM, cs->o->timeout);
	if (fd < 0) {
		cs->err = fd;
		return NULL;
	}
	tcp_opts(fd, cs->req, true);
	size_t n = cs->req->size;
	char *buf = pl_xcalloc(1, n);
	uint64_t end = pl_now_ns() + (uint64_t)(cs->req->seconds * 1e9);
	while (pl_now_ns() < end) {
		int r = send_full(fd, buf, n);
		if (r < 0) {
			cs->err = r;
			break;
		}
		cs->tx_bytes += n;
	}
	cs->retrans = tcp_retrans(fd);
	cs->cpu = sched_getcpu();
	shutdown(fd, SHUT_WR);
	close(fd);
	free(buf);
	return NULL;
}

static int cli_tcp_pp(const struct pl_net_client_opts *o, const struct pl_net_req *req,
		      struct sockaddr_storage *data, socklen_t len, struct pl_hist *lat,
		      struct pl_net_result *res)
{
	int fd = connect_timeout(data, len, SOCK_STREAM, o->timeout);
	if (fd < 0)
		return fd;
	res->busy_poll_denied = tcp_opts(fd, req, true);
	char *buf = pl_xcalloc(1, req->size);
	int r = 0;
	uint64_t t0 = pl_now_ns(), end = t0 + (uint64_t)(req->seconds * 1e9), t = t0;
	while (t < end) {
		uint64_t a = pl_now_ns();
		if ((r = send_full(fd, buf, req->size)) < 0 ||
		    (r = recv_full(fd, buf, req->size, NULL)) < 0)
			break;
		t = pl_now_ns();
		if (lat)
			pl_hist_record(lat, t - a);
		res->transactions++;
		res->tx_bytes += req->size;
		res->tx_msgs++;
	}
	res->elapsed_s = (double)(pl_now_ns() - t0) / 1e9;
	res->retrans += tcp_retrans(fd);
	res->client_cpu = sched_getcpu();
	close(fd);
	free(buf);
	return r;
}

static int cli_udp(const struct pl_net_client_opts *o, const struct pl_net_req *req,
		   struct sockaddr_storage *data, socklen_t len, struct pl_hist *lat,
		   struct pl_net_result *res)
{
	int fd = socket(data->ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)data, len) < 0) {
		int e = -errno;
		close(fd);
		return e;
	}
	res->busy_poll_denied = tcp_opts(fd, req, false);
	bool pp = req->test == PL_NET_UDP_PP;
	/* A lost datagram is given up after 200 ms (or the timeout if shorter); the test
	 * fails only when nothing comes back for the whole timeout. */
	double wait = o->timeout < 0.2 ? o->timeout : 0.2;
	set_timeo(fd, wait);
	char *buf = pl_xcalloc(1, req->size), *in = pl_xcalloc(1, req->size);
	int r = 0;
	uint64_t seq = 0, t0 = pl_now_ns(), end = t0 + (uint64_t)(req->seconds * 1e9);
	uint64_t last_reply = t0;
	for (uint64_t t = t0; t < end; t = pl_now_ns()) {
		seq++;
		memcpy(buf, &seq, sizeof(seq));
		uint64_t a = pl_now_ns();
		if (send(fd, buf, req->size, MSG_NOSIGNAL) < 0) {
			if (errno == ENOBUFS || errno == EAGAIN || errno == ECONNREFUSED)
				continue;
			r = -errno;
			break;
		}
		res->tx_msgs++;
		res->tx_bytes += req->size;
		if (!pp)
			continue;
		for (;;) {
			ssize_t n = recv(fd, in, req->size, 0);
			uint64_t b = pl_now_ns();
			if (n < 0 && (errno == EAGAIN || errno == ECONNREFUSED)) {
				res->lost++;
				if ((double)(b - last_reply) / 1e9 >= o->timeout)
					r = -ETIMEDOUT;
				break;
			}
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				r = -errno;
				break;
			}
			uint64_t got;
			memcpy(&got, in, sizeof(got));
			if (got != seq)
				continue; /* a late reply to an earlier, already counted as lost */
			last_reply = b;
			if (lat)
				pl_hist_record(lat, b - a);
			res->transactions++;
			break;
		}
		if (r < 0)
			break;
	}
	res->elapsed_s = (double)(pl_now_ns() - t0) / 1e9;
	res->client_cpu = sched_getcpu();
	if (!pp)
		usleep(50000); /* let the receiver drain its socket buffer */
	close(fd);
	free(buf);
	free(in);
	return r;
}

static int cli_crr(const struct pl_net_client_opts *o, const struct pl_net_req *req,
		   struct sockaddr_storage *data, socklen_t len, struct pl_hist *lat,
		   struct pl_net_result *res)
{
	char *buf = pl_xcalloc(1, req->size);
	int r = 0;
	uint64_t t0 = pl_now_ns(), end = t0 + (uint64_t)(req->seconds * 1e9);
	for (uint64_t t = t0; t < end; t = pl_now_ns()) {
		uint64_t a = pl_now_ns();
		int fd = connect_timeout(data, len, SOCK_STREAM, o->timeout);
		if (fd < 0) {
			r = fd;
			break;
		}
		res->busy_poll_denied |= tcp_opts(fd, req, true);
		r = send_full(fd, buf, req->size);
		if (r == 0)
			r = recv_full(fd, buf, req->size, NULL);
		res->retrans += tcp_retrans(fd);
		close(fd);
		if (r < 0)
			break;
		if (lat)
			pl_hist_record(lat, pl_now_ns() - a);
		res->transactions++;
		res->tx_msgs++;
		res->tx_bytes += req->size;
	}
	res->elapsed_s = (double)(pl_now_ns() - t0) / 1e9;
	res->client_cpu = sched_getcpu();
	free(buf);
	return r;
}

static int cli_stream(const struct pl_net_client_opts *o, const struct pl_net_req *req,
		      struct sockaddr_storage *data, socklen_t len, struct pl_net_result *res)
{
	struct cli_stream cs[PL_NET_MAX_STREAMS];
	pthread_t th[PL_NET_MAX_STREAMS];
	unsigned n = req->streams, started = 0;
	uint64_t t0 = pl_now_ns();
	for (; started < n; started++) {
		cs[started] = (struct cli_stream){ o, req, *data, len, 0, 0, 0, -1 };
		if (pthread_create(&th[started], NULL, cli_stream_thread, &cs[started]) != 0)
			break;
	}
	int r = started < n ? -EAGAIN : 0;
	for (unsigned i = 0; i < started; i++) {
		pthread_join(th[i], NULL);
		res->tx_bytes += cs[i].tx_bytes;
		res->retrans += cs[i].retrans;
		if (cs[i].err < 0 && r == 0)
			r = cs[i].err;
		if (i == 0)
			res->client_cpu = cs[i].cpu;
	}
	res->elapsed_s = (double)(pl_now_ns() - t0) / 1e9;
	return r;
}

static const char *errtext(int r)
{
	switch (-r) {
	case ETIMEDOUT:
		return "timed out: the peer is silent";
	case ECONNRESET:
		return "the peer closed the connection";
	case ECONNREFUSED:
		return "connection refused: is 'perflab bench net --server' running there?";
	default:
		return strerror(-r);
	}
}

int pl_net_run(const struct pl_net_client_opts *o, const struct pl_net_req *req,
	       struct pl_hist *lat, struct pl_net_result *res, char *err, size_t errlen)
{
	memset(res, 0, sizeof(*res));
	res->client_cpu = -1;
	res->server.cpu = -1;
	char line[PL_NET_LINE_MAX + 2], why[160];
	pin_self(o->cpu);
	/* A busy server (another client's test) is retried every 100 ms until the timeout. */
	uint64_t give_up = pl_now_ns() + (uint64_t)(o->timeout * 1e9);
	pl_autoclose int cfd = -1;
	int r, port;
	for (;;) {
		cfd = connect_timeout(&o->addr, o->addrlen, SOCK_STREAM, o->timeout);
		if (cfd < 0) {
			snprintf(err, errlen, "control connection: %s", errtext(cfd));
			return cfd;
		}
		r = pl_net_req_format(req, line, sizeof(line));
		if (r >= 0)
			r = send_line(cfd, line);
		if (r >= 0)
			r = read_line(cfd, line, sizeof(line), o->timeout);
		if (r < 0) {
			snprintf(err, errlen, "no reply to the test request within %.1f s: %s",
				 o->timeout, errtext(r));
			return r;
		}
		port = pl_net_ok_parse(line, why, sizeof(why));
		if (port != -EPROTO || !pl_startswith(why, "busy") || pl_now_ns() >= give_up)
			break;
		close(pl_steal_fd(&cfd));
		usleep(100000);
	}
	if (port < 0) {
		r = port;
		snprintf(err, errlen, "server %s: %s",
			 r == -EPROTO ? "refused the test" : "sent garbage", why);
		return r;
	}
	struct sockaddr_storage data = o->addr;
	set_port(&data, port);
	switch (req->test) {
	case PL_NET_TCP_PP:
		r = cli_tcp_pp(o, req, &data, o->addrlen, lat, res);
		break;
	case PL_NET_UDP_PP:
	case PL_NET_UDP_STREAM:
		r = cli_udp(o, req, &data, o->addrlen, lat, res);
		break;
	case PL_NET_TCP_CRR:
		r = cli_crr(o, req, &data, o->addrlen, lat, res);
		break;
	default:
		r = cli_stream(o, req, &data, o->addrlen, res);
		break;
	}
	if (r < 0) {
		snprintf(err, errlen, "%s data path: %s", pl_net_test_names[req->test], errtext(r));
		return r;
	}
	if ((r = send_line(cfd, "END\n")) < 0 ||
	    (r = read_line(cfd, line, sizeof(line), o->timeout + 1)) < 0) {
		snprintf(err, errlen, "no result from the server within %.1f s: %s", o->timeout + 1,
			 errtext(r));
		return r;
	}
	if ((r = pl_net_done_parse(line, &res->server)) < 0) {
		snprintf(err, errlen, "server sent a malformed result line");
		return r;
	}
	res->retrans += res->server.retrans;
	return 0;
}
