/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "profile/flame.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/escape.h"
#include "util/str.h"

struct node {
	char *name;
	uint64_t count;
	size_t *kids;
	size_t nkids, capkids;
	size_t parent, depth; /* the root is its own parent, at depth 0 */
};

struct pl_flame {
	struct node *n;
	size_t len, cap;
	size_t maxdepth;
	/* (parent, name) -> node id, open addressing; 0 = empty (the root is nobody's child) */
	size_t *hash;
	size_t hcap;
	char unit[16]; /* what a count is: "samples", "us" */
};

struct pl_flame *pl_flame_new(void)
{
	struct pl_flame *f = pl_xcalloc(1, sizeof(*f));
	f->cap = 64;
	f->n = pl_xmalloc(f->cap * sizeof(*f->n));
	f->n[f->len++] = (struct node){ pl_xstrdup("all"), 0, NULL, 0, 0, 0, 0 };
	f->hcap = 128;
	f->hash = pl_xcalloc(f->hcap, sizeof(size_t));
	snprintf(f->unit, sizeof(f->unit), "samples");
	return f;
}

void pl_flame_set_unit(struct pl_flame *f, const char *unit)
{
	size_t n = strspn(unit, "abcdefghijklmnopqrstuvwxyz");
	if (n && n < sizeof(f->unit) && !unit[n])
		snprintf(f->unit, sizeof(f->unit), "%s", unit);
}

void pl_flame_free(struct pl_flame *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->len; i++) {
		free(f->n[i].name);
		free(f->n[i].kids);
	}
	free(f->n);
	free(f->hash);
	free(f);
}

/* FNV-1a of the name, mixed with the parent's id. */
static size_t key_hash(size_t parent, const char *name, size_t len)
{
	uint64_t h = 14695981039346656037ull ^ ((uint64_t)parent * 0x9e3779b97f4a7c15ull);
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)name[i]) * 1099511628211ull;
	return (size_t)(h ^ (h >> 29));
}

/* The slot of (parent, name): its node, or the empty slot where it goes. */
static size_t *slot(struct pl_flame *f, size_t parent, const char *name, size_t len)
{
	size_t i = key_hash(parent, name, len) & (f->hcap - 1);
	for (;; i = (i + 1) & (f->hcap - 1)) {
		size_t id = f->hash[i];
		if (!id)
			return &f->hash[i];
		const char *kn = f->n[id].name;
		if (f->n[id].parent == parent && strncmp(kn, name, len) == 0 && kn[len] == '\0')
			return &f->hash[i];
	}
}

/* Grow an array of @n elements of @size to at least @want, doubling; exits on overflow
 * as on out-of-memory (pl_xrealloc). */
static void *grow(void *p, size_t *n, size_t want, size_t size)
{
	size_t c = *n ? *n : 4, bytes;
	while (c < want)
		if (__builtin_mul_overflow(c, 2, &c))
			c = want;
	if (__builtin_mul_overflow(c, size, &bytes))
		bytes = SIZE_MAX; /* pl_xrealloc refuses it like an allocation failure */
	*n = c;
	return pl_xrealloc(p, bytes);
}

static size_t child(struct pl_flame *f, size_t parent, const char *name, size_t len)
{
	size_t *s = slot(f, parent, name, len);
	if (*s)
		return *s;
	if (f->len == f->cap)
		f->n = grow(f->n, &f->cap, f->len + 1, sizeof(*f->n));
	size_t id = f->len++;
	char *nm = pl_xmalloc(len + 1);
	memcpy(nm, name, len);
	nm[len] = '\0';
	f->n[id] = (struct node){ nm, 0, NULL, 0, 0, parent, f->n[parent].depth + 1 };
	if (f->n[id].depth > f->maxdepth)
		f->maxdepth = f->n[id].depth;
	struct node *p = &f->n[parent];
	if (p->nkids == p->capkids)
		p->kids = grow(p->kids, &p->capkids, p->nkids + 1, sizeof(size_t));
	p->kids[p->nkids++] = id;
	*s = id;
	if (2 * f->len > f->hcap) {
		/* rehash at half full */
		size_t *old = f->hash, ocap = f->hcap;
		f->hcap *= 2;
		f->hash = pl_xcalloc(f->hcap, sizeof(size_t));
		for (size_t i = 0; i < ocap; i++)
			if (old[i]) {
				const struct node *n = &f->n[old[i]];
				*slot(f, n->parent, n->name, strlen(n->name)) = old[i];
			}
		free(old);
	}
	return id;
}

int pl_flame_check_stack(const char *stack, size_t len)
{
	if (len == 0)
		return -ENODATA;
	size_t frames = 1;
	for (size_t i = 0; i < len; i++) {
		if (stack[i] != ';')
			continue;
		if (i == 0 || i + 1 == len || stack[i + 1] == ';')
			return -ENOMSG;
		if (++frames > PL_FLAME_MAX_DEPTH)
			return -E2BIG;
	}
	return 0;
}

/* "[unknown]", with the kernel's or off-CPU mark or not: a frame that did not resolve. */
static bool is_unknown(const char *name, size_t len)
{
	static const char u[] = "[unknown]";
	size_t ul = sizeof(u) - 1;
	if (len < ul || memcmp(name, u, ul) != 0)
		return false;
	return len == ul || (len == ul + 4 && (memcmp(name + ul, "_[k]", 4) == 0 ||
					       memcmp(name + ul, "_[o]", 4) == 0));
}

int pl_flame_add(struct pl_flame *f, const char *stack, size_t len, uint64_t count)
{
	int r = pl_flame_check_stack(stack, len);
	if (r < 0)
		return r;
	uint64_t total;
	if (__builtin_add_overflow(f->n[0].count, count, &total))
		return -EOVERFLOW;
	f->n[0].count = total;
	size_t cur = 0;
	const char *s = stack, *end = stack + len;
	while (s < end) {
		const char *e = memchr(s, ';', (size_t)(end - s));
		if (!e)
			e = end;
		size_t n = (size_t)(e - s);
		const char *cn = f->n[cur].name;
		/* a run of identical "[unknown]" frames (a broken unwind repeating one
		 * unresolved frame) is one frame */
		bool repeat = cur && is_unknown(s, n) && strncmp(cn, s, n) == 0 && cn[n] == '\0';
		if (!repeat) {
			cur = child(f, cur, s, n);
			f->n[cur].count += count; /* <= the total: no wrap */
		}
		s = e + 1;
	}
	return 0;
}
/* A count: decimal digits only, 0 to 2^64-1. Returns 0, -EDOM or -ERANGE. */
static int parse_count(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -EDOM;
	}
	for (size_t i = 0; i < n; i++)
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, (uint64_t)(s[i] - '0'), &v))
			return -ERANGE;
	*out = v;
	return 0;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int pl_flame_add_line(struct pl_flame *f, const char *line)
{
	size_t len = strlen(line);
	while (len && is_blank(line[len - 1]))
		len--;
	if (!len)
		return 0;
	size_t sp = len;
	while (sp > 0 && line[sp - 1] != ' ' && line[sp - 1] != '\t')
		sp--;
	if (sp == 0)
		return -EINVAL; /* one word: no count */
	uint64_t count;
	int r = parse_count(line + sp, len - sp, &count);
	if (r < 0)
		return r;
	size_t slen = sp - 1;
	while (slen && (line[slen - 1] == ' ' || line[slen - 1] == '\t'))
		slen--;
	return pl_flame_add(f, line, slen, count);
}

int pl_flame_read(struct pl_flame *f, FILE *in, size_t *bad_line)
{
	struct pl_buf b = { 0 };
	size_t no = 0;
	int r = 0, c = 0;
	while (r == 0 && c != EOF) {
		b.len = 0;
		while ((c = getc(in)) != EOF && c != '\n') {
			if (b.len >= PL_FLAME_MAX_LINE) {
				r = -EMSGSIZE;
				break;
			}
			if (c == '\0')
				r = -EILSEQ; /* reported after the line is read, with its number */
			char ch = (char)c;
			pl_buf_append(&b, &ch, 1);
		}
		if (c == EOF && b.len == 0)
			break;
		pl_buf_append(&b, "", 0); /* terminated at len, also when empty */
		no++;
		if (r == 0)
			r = pl_flame_add_line(f, b.data);
	}
	if (r < 0 && bad_line)
		*bad_line = no;
	pl_buf_free(&b);
	return r;
}

const char *pl_flame_strerror(int err)
{
	switch (err) {
	case -EINVAL:
		return "no count after the stack (expected 'frame;frame;leaf COUNT')";
	case -ENODATA:
		return "no frames before the count (expected 'frame;frame;leaf COUNT')";
	case -EDOM:
		return "the count is not a whole number of samples (digits only, no sign)";
	case -ERANGE:
		return "the count is past 2^64-1 (18446744073709551615)";
	case -EOVERFLOW:
		return "the counts add up past 2^64-1 (18446744073709551615)";
	case -ENOMSG:
		return "an empty frame name (';;', or ';' at the start or the end of the stack)";
	case -E2BIG:
		return "more than 65536 frames in one stack";
	case -EMSGSIZE:
		return "a line longer than 16 MiB";
	case -EILSEQ:
		return "a NUL byte in the line";
	default:
		return "not a folded stack (expected 'frame;frame;leaf COUNT')";
	}
}

uint64_t pl_flame_total(const struct pl_flame *f)
{
	return f->n[0].count;
}

static const struct pl_flame *sort_f;

static int cmp_name(const void *x, const void *y)
{
	return strcmp(sort_f->n[*(const size_t *)x].name, sort_f->n[*(const size_t *)y].name);
}

/* @s as XML text: markup characters as entities, bytes that are not UTF-8 and control
 * characters as \xNN (util/escape.h), so any symbol name keeps the SVG well-formed. */
static void xml_escape(FILE *out, const char *s)
{
	pl_xml_escape_file(out, s);
}

/* FNV-1a of the name -> a warm colour (flamegraph.pl's "hot" palette ranges). */
static void colour(const char *name, int *r, int *g, int *b)
{
	uint32_t h = 2166136261u;
	for (const char *s = name; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	size_t len = strlen(name);
	if (len > 4 && strcmp(name + len - 4, "_[o]") == 0) {
		/* off-CPU frames: blue family (flamegraph.pl's "io" palette) */
		*r = 80 + (int)(h % 60);
		*g = 110 + (int)((h >> 8) % 70);
		*b = 190 + (int)((h >> 16) % 65);
		return;
	}
	if (len > 4 && strcmp(name + len - 4, "_[k]") == 0) {
		/* kernel frames: orange-brown family */
		*r = 200 + (int)(h % 55);
		*g = 110 + (int)((h >> 8) % 60);
		*b = 40 + (int)((h >> 16) % 30);
		return;
	}
	*r = 205 + (int)(h % 50);
	*g = (int)((h >> 8) % 230);
	*b = (int)((h >> 16) % 55);
}

#define W 1200.0
#define FH 16
#define PAD 10.0

/* One frame: its box, its name cut to fit. */
static void draw_node(const struct pl_flame *f, FILE *out, size_t node, double x, double w,
		      int depth, double ybase, uint64_t total)
{
	const struct node *n = &f->n[node];
	double y = ybase - (double)(depth + 1) * FH;
	int r, g, b;
	colour(n->name, &r, &g, &b);
	fprintf(out, "<g class=\"f\" data-d=\"%d\" data-c=\"%llu\"><title>", depth,
		(unsigned long long)n->count);
	xml_escape(out, n->name);
	fprintf(out,
		" (%llu %s, %.2f%%)</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		"height=\"%d\" fill=\"rgb(%d,%d,%d)\" data-f=\"rgb(%d,%d,%d)\" rx=\"2\"/><text "
		"x=\"%.1f\" y=\"%.1f\">",
		(unsigned long long)n->count, f->unit, 100.0 * (double)n->count / (double)total, x,
		y, w, FH - 1, r, g, b, r, g, b, x + 3, y + FH - 4.5);
	/* Text that fits (about 7 px per character); the script re-fits after zoom. */
	size_t fit = w > 10 ? (size_t)((w - 6) / 7) : 0;
	size_t len = strlen(n->name);
	if (fit >= len) {
		xml_escape(out, n->name);
	} else if (fit > 2) {
		char buf[512];
		size_t k = fit - 2 < sizeof(buf) - 1 ? fit - 2 : sizeof(buf) - 1;
		/* cut before a character, never inside one's UTF-8 encoding */
		while (k > 0 && ((unsigned char)n->name[k] & 0xc0) == 0x80)
			k--;
		memcpy(buf, n->name, k);
		buf[k] = '\0';
		xml_escape(out, buf);
		fputs("..", out);
	}
	fputs("</text></g>\n", out);
}

/* Every frame wide enough to see, parents before children and children by name (a
 * depth-first walk with an explicit stack: stacks may be PL_FLAME_MAX_DEPTH deep). */
static void draw(const struct pl_flame *f, FILE *out, double ybase, uint64_t total)
{
	struct todo {
		size_t node;
		double x;
		int depth;
	} *stack = pl_xcalloc(f->len, sizeof(*stack));
	size_t *kids = pl_xcalloc(f->len, sizeof(size_t));
	size_t top = 0;
	stack[top++] = (struct todo){ 0, PAD, -1 };
	while (top > 0) {
		struct todo t = stack[--top];
		const struct node *n = &f->n[t.node];
		double w = (W - 2 * PAD) * (double)n->count / (double)total;
		if (w < 0.1)
			continue;
		draw_node(f, out, t.node, t.x, w, t.depth, ybase, total);
		if (n->nkids)
			memcpy(kids, n->kids, n->nkids * sizeof(size_t));
		sort_f = f;
		qsort(kids, n->nkids, sizeof(size_t), cmp_name);
		/* each node is pushed once, so the stack never holds more than f->len */
		/* the frames below the cap are not drawn (a deep stack would push the
		 * rest of the graph off the picture); the SVG says how deep it was */
		if (t.depth + 2 > PL_FLAME_DRAW_DEPTH)
			continue;
		double cx = t.x;
		size_t first = top;
		for (size_t i = 0; i < n->nkids; i++) {
			stack[first + n->nkids - 1 - i] = (struct todo){ kids[i], cx, t.depth + 1 };
			cx += (W - 2 * PAD) * (double)f->n[kids[i]].count / (double)total;
		}
		top += n->nkids;
	}
	free(kids);
	free(stack);
}

static const char script[] =
	"<script type=\"text/ecmascript\"><![CDATA[\n"
	"var W="
	"1200"
	",P=10,fs=[],det,srch,tot=0;\n"
	"function "
	"init(){fs=[].slice.call(document.querySelectorAll('g.f'));det=document.getElementById('"
	"det');\n"
	" srch=document.getElementById('srch');fs.forEach(function(g){var "
	"r=g.querySelector('rect');\n"
	"  "
	"g.ox=+r.getAttribute('x');g.ow=+r.getAttribute('width');g.nm=g.querySelector('title')."
	"textContent.replace(/ \\(\\d+ "
	"\0" /* the unit: written by pl_flame_write_svg */
	".*$/,'');\n"
	"  g.onmouseover=function(){det.textContent=g.querySelector('title').textContent;};\n"
	"  g.onmouseout=function(){det.textContent=' ';};g.onclick=function(){zoom(g);};});\n"
	" tot=fs.length?+fs[0].getAttribute('data-c'):0;fs.forEach(fit);}\n"
	"function fit(g){var "
	"r=g.querySelector('rect'),t=g.querySelector('text'),w=+r.getAttribute('width');\n"
	" var n=Math.floor((w-6)/7);t.setAttribute('x',+r.getAttribute('x')+3);\n"
	" t.textContent=n>=g.nm.length?g.nm:(n>2?g.nm.substring(0,n-2)+'..':'');}\n"
	"function zoom(z){var x0=z.ox,w0=z.ow,d0=+z.getAttribute('data-d'),k=(W-2*P)/w0;\n"
	" fs.forEach(function(g){var r=g.querySelector('rect'),d=+g.getAttribute('data-d');\n"
	"  var inside=g.ox>=x0-1e-6&&g.ox+g.ow<=x0+w0+1e-6;\n"
	"  "
	"if(d>=d0&&inside){r.setAttribute('x',P+(g.ox-x0)*k);r.setAttribute('width',g.ow*k);g."
	"style.display='';}\n"
	"  else "
	"if(d<d0&&g.ox<=x0+1e-6&&g.ox+g.ow>=x0+w0-1e-6){r.setAttribute('x',P);r.setAttribute('"
	"width',W-2*P);g.style.opacity=0.6;g.style.display='';}\n"
	"  else g.style.display='none';fit(g);});}\n"
	"function unzoom(){fs.forEach(function(g){var "
	"r=g.querySelector('rect');r.setAttribute('x',g.ox);\n"
	" r.setAttribute('width',g.ow);g.style.display='';g.style.opacity='';fit(g);});}\n"
	"function search(){var t=prompt('Search (regular expression)','');if(t===null)return;var "
	"re=new RegExp(t),m=0,seen=[];\n"
	" fs.forEach(function(g){var "
	"r=g.querySelector('rect');if(t&&re.test(g.nm)){r.setAttribute('fill','rgb(230,0,230)');\n"
	"  var c=+g.getAttribute('data-c'),x=g.ox;if(!seen.some(function(s){return "
	"x>=s[0]&&x<s[1];})){seen.push([x,x+g.ow]);m+=c;}}\n"
	"  else if(r.getAttribute('data-f'))r.setAttribute('fill',r.getAttribute('data-f'));});\n"
	" srch.textContent=t?('Matched: '+(tot?(100*m/tot).toFixed(2):0)+'%'):'';}\n"
	"]]></script>\n";

int pl_flame_write_svg(const struct pl_flame *f, FILE *out, const char *title,
		       const struct pl_flame_timeline *tl)
{
	bool cut = f->maxdepth > PL_FLAME_DRAW_DEPTH;
	int depth = (int)(cut ? PL_FLAME_DRAW_DEPTH : f->maxdepth) + 1;
	double tl_h = 0;
	size_t ncells = 0;
	if (tl && __builtin_mul_overflow(tl->nrows, tl->nbuckets, &ncells))
		return -EOVERFLOW;
	if (tl && ncells)
		tl_h = 20.0 + (double)tl->nrows * 14.0 + 10.0;
	double top = 50.0 + tl_h;
	double height = top + depth * FH + 30.0;
	fprintf(out,
		"<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" width=\"%.0f\" height=\"%.0f\" onload=\"init()\" "
		"viewBox=\"0 0 %.0f %.0f\" xmlns=\"http://www.w3.org/2000/svg\">\n",
		W, height, W, height);
	fputs("<style>text{font-family:Verdana,sans-serif;font-size:12px;fill:#000}"
	      "g.f:hover rect{stroke:#000;stroke-width:0.5}g.f{cursor:pointer}"
	      ".h{font-size:17px;text-anchor:middle}.b{cursor:pointer;fill:#222}</style>\n",
	      out);
	/* the script, with the unit where its "\0" is */
	fputs(script, out);
	fputs(f->unit, out);
	fputs(script + strlen(script) + 1, out);
	fprintf(out,
		"<rect width=\"100%%\" height=\"100%%\" fill=\"#f8f8f0\"/>\n"
		"<text class=\"h\" x=\"%.0f\" y=\"24\">",
		W / 2);
	xml_escape(out, title ? title : "Flame graph");
	fprintf(out,
		"</text>\n<text class=\"b\" x=\"%.0f\" y=\"24\" onclick=\"unzoom()\">Reset "
		"zoom</text>\n<text class=\"b\" x=\"%.0f\" y=\"24\" onclick=\"search()\">"
		"Search</text>\n<text id=\"srch\" x=\"%.0f\" y=\"%.0f\"> </text>\n"
		"<text id=\"det\" x=\"%.0f\" y=\"%.0f\"> </text>\n",
		PAD, W - 120, W - 220, height - 10, PAD, height - 10);
	if (cut)
		fprintf(out,
			"<text id=\"cut\" x=\"%.0f\" y=\"42\">Stacks up to %zu frames deep: "
			"frames below %d are not drawn (the folded stacks have them all)</text>\n",
			PAD, f->maxdepth, PL_FLAME_DRAW_DEPTH);
	if (tl_h > 0) {
		uint64_t mx = 1;
		for (size_t i = 0; i < ncells; i++)
			if (tl->counts[i] > mx)
				mx = tl->counts[i];
		fprintf(out,
			"<g id=\"timeline\"><text x=\"%.0f\" y=\"%.0f\">Timeline (%.0f ms "
			"buckets, darker = more samples)</text>\n",
			PAD, 50.0 + 12, tl->bucket_ms);
		double lw = 150.0, bw = (W - 2 * PAD - lw) / (double)tl->nbuckets;
		for (size_t r = 0; r < tl->nrows; r++) {
			double y = 50.0 + 18 + (double)r * 14.0;
			fprintf(out, "<text x=\"%.0f\" y=\"%.1f\">", PAD, y + 11);
			xml_escape(out, tl->labels[r]);
			fputs("</text>\n", out);
			for (size_t b = 0; b < tl->nbuckets; b++) {
				uint64_t c = tl->counts[r * tl->nbuckets + b];
				if (!c)
					continue;
				int shade = 230 - (int)(200.0 * (double)c / (double)mx);
				fprintf(out,
					"<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"12\" "
					"fill=\"rgb(%d,%d,255)\"><title>%llu</title></rect>\n",
					PAD + lw + (double)b * bw, y, bw, shade, shade,
					(unsigned long long)c);
			}
		}
		fputs("</g>\n", out);
	}
	if (f->n[0].count)
		draw(f, out, top + depth * FH, f->n[0].count);
	fputs("</svg>\n", out);
	return ferror(out) ? -EIO : 0;
}
