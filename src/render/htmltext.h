/* SPDX-License-Identifier: GPL-3.0-or-later */
/* HTML text that wraps only where a reader expects it to: a number stays on the line of
 * its unit, a name breaks at its natural points (after '(', '_', '.') and nowhere inside
 * a word. Both escape as pl_html_escape() does (render/svg.h). */
#ifndef PERFLAB_RENDER_HTMLTEXT_H
#define PERFLAB_RENDER_HTMLTEXT_H

#include "util/str.h"

/** Append @s (NULL -> "") to @out as escaped HTML text (pl_html_escape()) with each
 *  number and the unit after it ("39.89 ns", "1 MiB", "93454/s", "12.5 %") inside
 *  <span class="nw">, which the page's CSS keeps on one line (white-space: nowrap). A
 *  unit is one of the time, size, rate, frequency and % units perflab writes (ns..h,
 *  B..TiB, B/s..GiB/s, bit/s..Gbit/s, Hz..GHz, /s, ops/s, %, W) after one space, or a
 *  "/s" rate right after the number. For text content only, never an attribute value. */
void pl_html_text(struct pl_buf *out, const char *s);

/** Append @s (NULL -> "") to @out as escaped HTML text with a line-break opportunity
 *  (<wbr>) after each character of @after (ASCII characters: a UTF-8 sequence is never
 *  split), so dotted keys, paths, comma lists and metric names wrap there before they
 *  wrap anywhere else. */
void pl_html_wbr(struct pl_buf *out, const char *s, const char *after);

#endif
