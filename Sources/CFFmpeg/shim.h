#ifndef VPLAY_CFFMPEG_SHIM_H
#define VPLAY_CFFMPEG_SHIM_H

#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/dict.h>
#include <libavutil/log.h>
#include <libavutil/pixdesc.h>
#include <libavutil/time.h>
#include <libavutil/channel_layout.h>
#include <libavutil/opt.h>
#include <errno.h>

// FFmpeg's function-like and compound macros do not import into Swift; these give them once.
static inline int vplay_averror(int posix) { return AVERROR(posix); }
static const int VPLAY_AVERROR_EOF = AVERROR_EOF;
static const int VPLAY_AVERROR_EAGAIN = AVERROR(EAGAIN);
static const int VPLAY_AVERROR_INVALIDDATA = AVERROR_INVALIDDATA;
static const int VPLAY_AVERROR_DECODER_NOT_FOUND = AVERROR_DECODER_NOT_FOUND;
static const int VPLAY_AVERROR_DEMUXER_NOT_FOUND = AVERROR_DEMUXER_NOT_FOUND;
static const int VPLAY_AVERROR_PROTOCOL_NOT_FOUND = AVERROR_PROTOCOL_NOT_FOUND;
static const int VPLAY_AVERROR_STREAM_NOT_FOUND = AVERROR_STREAM_NOT_FOUND;
static const int VPLAY_AVERROR_EXIT = AVERROR_EXIT;
static const int VPLAY_AVERROR_HTTP_NOT_FOUND = AVERROR_HTTP_NOT_FOUND;
static const int VPLAY_AVERROR_HTTP_FORBIDDEN = AVERROR_HTTP_FORBIDDEN;
static const int VPLAY_AVERROR_HTTP_SERVER_ERROR = AVERROR_HTTP_SERVER_ERROR;
static const int VPLAY_AVERROR_HTTP_OTHER_4XX = AVERROR_HTTP_OTHER_4XX;
static const int VPLAY_AVERROR_HTTP_BAD_REQUEST = AVERROR_HTTP_BAD_REQUEST;
static const int VPLAY_AVERROR_HTTP_UNAUTHORIZED = AVERROR_HTTP_UNAUTHORIZED;
static const int64_t VPLAY_AV_NOPTS_VALUE = AV_NOPTS_VALUE;
static const int VPLAY_AV_TIME_BASE = AV_TIME_BASE;

/// av_err2str is a macro over a compound literal; this copies FFmpeg's message into `buffer`.
static inline const char *vplay_error_string(int code, char *buffer, size_t size) {
    av_strerror(code, buffer, size);
    return buffer;
}

/// Silences FFmpeg's own logging to stderr (the caller reports errors itself) or restores it.
static inline void vplay_set_log_level(int level) { av_log_set_level(level); }

#if defined(__GLIBC__)
#include <malloc.h>
/// Fixes glibc's mmap threshold (which also turns its dynamic adjustment off): blocks of `bytes` or more are mapped
/// on their own and unmapped when freed.
static inline void vplay_set_mmap_threshold(int bytes) { mallopt(M_MMAP_THRESHOLD, bytes); }
#else
static inline void vplay_set_mmap_threshold(int bytes) { (void)bytes; }
#endif

#endif
