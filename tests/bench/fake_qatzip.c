/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * A stand-in for Intel's QATzip (libqatzip.so.3) so the QAT backend of bench compress
 * (dlopen, session set-up, compress/decompress, the per-request fallback of
 * `--backend auto`) runs on machines without a QAT device. Same entry points and
 * argument shapes as qatzip.h (qzInit, qzSetupSession, qzCompress, qzDecompress,
 * qzTeardownSession, qzClose); the "hardware" is zlib writing a gzip member.
 * FAKE_QZ_BUSY_EVERY=N makes every Nth qzCompress of a process return
 * QZ_NOSW_NO_INST_ATTACH (-103: no free instance and no software backup, as perflab asks
 * with sw_backup = 0), as a saturated device does. The counter is per process: each
 * worker of the web-tier stage (a forked process) counts its own calls.
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

typedef struct { /* qatzip.h's layout: hw_session_stat is a signed long */
	signed long hw_session_stat;
	int thd_sess_stat;
	void *internal;
	unsigned long total_in, total_out;
} QzSession_T;

enum {
	QZ_OK = 0,
	QZ_DUPLICATE = 1,
	QZ_FAIL = -2,
	QZ_BUF_ERROR = -3,
	QZ_DATA_ERROR = -4,
	QZ_NOSW_NO_INST_ATTACH = -103
};

static int inited;
static unsigned long calls;

int qzInit(QzSession_T *sess, unsigned char sw_backup);
int qzSetupSession(QzSession_T *sess, void *params);
int qzCompress(QzSession_T *sess, const unsigned char *src, unsigned int *src_len,
	       unsigned char *dest, unsigned int *dest_len, unsigned int last);
int qzDecompress(QzSession_T *sess, const unsigned char *src, unsigned int *src_len,
		 unsigned char *dest, unsigned int *dest_len);
int qzTeardownSession(QzSession_T *sess);
int qzClose(QzSession_T *sess);

/* Point @z at the caller's buffers. */
static void zbufs(z_stream *z, const unsigned char *src, unsigned int n, unsigned char *dest,
		  unsigned int cap)
{
	z->next_in = (unsigned char *)src;
	z->avail_in = n;
	z->next_out = dest;
	z->avail_out = cap;
}

int qzInit(QzSession_T *sess, unsigned char sw_backup)
{
	(void)sw_backup;
	sess->hw_session_stat = QZ_OK;
	if (inited)
		return QZ_DUPLICATE;
	inited = 1;
	return QZ_OK;
}

int qzSetupSession(QzSession_T *sess, void *params)
{
	(void)params;
	sess->internal = sess;
	return QZ_OK;
}

int qzCompress(QzSession_T *sess, const unsigned char *src, unsigned int *src_len,
	       unsigned char *dest, unsigned int *dest_len, unsigned int last)
{
	const char *e = getenv("FAKE_QZ_BUSY_EVERY");
	unsigned long every = e ? strtoul(e, NULL, 10) : 0;
	if (!sess->internal || !last)
		return QZ_FAIL;
	if (every && ++calls % every == 0)
		return QZ_NOSW_NO_INST_ATTACH;
	z_stream z;
	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return QZ_FAIL;
	zbufs(&z, src, *src_len, dest, *dest_len);
	int r = deflate(&z, Z_FINISH);
	*dest_len = (unsigned int)z.total_out;
	/* written on every call, as QATzip does: a caller whose struct is shorter than
	 * qatzip.h's overflows here (AddressSanitizer in the test build says so) */
	sess->total_in += z.total_in;
	sess->total_out += z.total_out;
	deflateEnd(&z);
	return r == Z_STREAM_END ? QZ_OK : QZ_BUF_ERROR;
}

int qzDecompress(QzSession_T *sess, const unsigned char *src, unsigned int *src_len,
		 unsigned char *dest, unsigned int *dest_len)
{
	if (!sess->internal)
		return QZ_FAIL;
	z_stream z;
	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 15 + 16) != Z_OK)
		return QZ_FAIL;
	zbufs(&z, src, *src_len, dest, *dest_len);
	int r = inflate(&z, Z_FINISH);
	*dest_len = (unsigned int)z.total_out;
	inflateEnd(&z);
	return r == Z_STREAM_END ? QZ_OK : QZ_DATA_ERROR;
}

int qzTeardownSession(QzSession_T *sess)
{
	sess->internal = NULL;
	return QZ_OK;
}

int qzClose(QzSession_T *sess)
{
	(void)sess;
	return QZ_OK;
}
