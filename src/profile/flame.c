/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "profile/flame.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/str.h"

struct node {
	char *name;
	uint64_t count;
	size_t *kids;
	size_t nkids, capkids;
};

struct pl_flame {
	struct node *n;
	size_t len, cap;
};

struct pl_flame *pl_flame_new(void)
{
	struct pl_flame *f = pl_xcalloc(1, sizeof(*f));
	f->cap = 64;
	f->n = pl_xmalloc(f->cap * sizeof(*f->n));
	f->n[f->len++] = (struct node){ pl_xstrdup("all"), 0, NULL, 0, 0 };
	return f;
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
	free(f);
}

static size_t child(struct pl_flame *f, size_t parent, const char *name, size_t len)
{
	struct node *p = &f->n[parent];
	for (size_t i = 0; i < p->nkids; i++) {
		const char *kn = f->n[p->kids[i]].name;
		if (strncmp(kn, name, len) == 0 && kn[len] == '\0')
			return p->kids[i];
	}
	if (f->len == f->cap) {
		f->cap *= 2;
		f->n = pl_xrealloc(f->n, f->cap * sizeof(*f->n));
	}
	size_t id = f->len++;
	char *nm = pl_xmalloc(len + 1);
	memcpy(nm, name, len);
	nm[len] = '\0';
	f->n[id] = (struct node){ nm, 0, NULL, 0, 0 };
	p = &f->n[parent];
	if (p->nkids == p->capkids) {
		p->capkids = p->capkids ? p->capkids * 2 : 4;
		p->kids = pl_xrealloc(p->kids, p->capkids * sizeof(size_t));
	}
	p->kids[p->nkids++] = id;
	return id;
}

int pl_flame_add_line(struct pl_flame *f, const char *line)
{
	size_t len = strlen(line);
	while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	if (!len)
		return 0;
	const char *sp = NULL;
	for (size_t i = len; i-- > 0;)
		if (line[i] == ' ') {
			sp = line + i;
			break;
		}
	if (!sp || sp == line)
		return -EINVAL;
	char num[32];
	size_t nl = len - (size_t)(sp + 1 - line);
	if (!nl || nl >= sizeof(num))
		return -EINVAL;
	memcpy(num, sp + 1, nl);
	num[nl] = '\0';
	uint64_t count;
	if (pl_parse_u64(num, &count) < 0)
		return -EINVAL;
	size_t cur = 0;
	f->n[0].count += count;
	const char *s = line;
	while (s < sp) {
		const char *e = memchr(s, ';', (size_t)(sp - s));
		if (!e)
			e = sp;
		if (e > s) {
			cur = child(f, cur, s, (size_t)(e - s));
			f->n[cur].count += count;
		}
		s = e + 1;
	}
	return 0;
}

int pl_flame_read(struct pl_flame *f, FILE *in, size_t *bad_line)
{
	char *line = NULL;
	size_t cap = 0, no = 0;
	int r = 0;
	while (getline(&line, &cap, in) >= 0) {
		no++;
		if (pl_flame_add_line(f, line) < 0) {
			if (bad_line)
				*bad_line = no;
			r = -EINVAL;
			break;
		}
	}
	free(line);
	return r;
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

static void xml_escape(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '&': fputs("&amp;", out); break;
		case '"': fputs("&quot;", out); break;
		default:
			if ((unsigned char)*s >= 0x20)
				fputc(*s, out);
		}
	}
}

/* FNV-1a of the name -> a warm colour (flamegraph.pl's "hot" palette ranges). */
static void colour(const char *name, int *r, int *g, int *b)
{
	uint32_t h = 2166136261u;
	for (const char *s = name; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	size_t len = strlen(name);
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

static int max_depth(const struct pl_flame *f, size_t node)
{
	int m = 0;
	for (size_t i = 0; i < f->n[node].nkids; i++) {
		int d = 1 + max_depth(f, f->n[node].kids[i]);
		if (d > m)
			m = d;
	}
	return m;
}

#define W 1200.0
#define FH 16
#define PAD 10.0

static void draw(const struct pl_flame *f, FILE *out, size_t node, double x, int depth,
		 double ybase, uint64_t total)
{
	const struct node *n = &f->n[node];
	double w = (W - 2 * PAD) * (double)n->count / (double)total;
	if (w < 0.1)
		return;
	double y = ybase - (double)(depth + 1) * FH;
	int r, g, b;
	colour(n->name, &r, &g, &b);
	fprintf(out, "<g class=\"f\" data-d=\"%d\" data-c=\"%llu\"><title>", depth,
		(unsigned long long)n->count);
	xml_escape(out, n->name);
	fprintf(out, " (%llu samples, %.2f%%)</title><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		     "height=\"%d\" fill=\"rgb(%d,%d,%d)\" data-f=\"rgb(%d,%d,%d)\" rx=\"2\"/><text x=\"%.1f\" y=\"%.1f\">",
		(unsigned long long)n->count, 100.0 * (double)n->count / (double)total, x, y, w,
		FH - 1, r, g, b, r, g, b, x + 3, y + FH - 4.5);
	/* Text that fits (about 7 px per character); the script re-fits after zoom. */
	size_t fit = w > 10 ? (size_t)((w - 6) / 7) : 0;
	size_t len = strlen(n->name);
	if (fit >= len) {
		xml_escape(out, n->name);
	} else if (fit > 2) {
		char buf[512];
		size_t k = fit - 2 < sizeof(buf) - 1 ? fit - 2 : sizeof(buf) - 1;
		memcpy(buf, n->name, k);
		buf[k] = '\0';
		xml_escape(out, buf);
		fputs("..", out);
	}
	fputs("</text></g>\n", out);
	size_t *kids = pl_xmalloc((n->nkids + 1) * sizeof(size_t));
	if (n->nkids)
		memcpy(kids, n->kids, n->nkids * sizeof(size_t));
	sort_f = f;
	qsort(kids, n->nkids, sizeof(size_t), cmp_name);
	double cx = x;
	for (size_t i = 0; i < n->nkids; i++) {
		draw(f, out, kids[i], cx, depth + 1, ybase, total);
		cx += (W - 2 * PAD) * (double)f->n[kids[i]].count / (double)total;
	}
	free(kids);
}

static const char script[] =
	"<script type=\"text/ecmascript\"><![CDATA[\n"
	"var W=" "1200" ",P=10,fs=[],det,srch,tot=0;\n"
	"function init(){fs=[].slice.call(document.querySelectorAll('g.f'));det=document.getElementById('det');\n"
	" srch=document.getElementById('srch');fs.forEach(function(g){var r=g.querySelector('rect');\n"
	"  g.ox=+r.getAttribute('x');g.ow=+r.getAttribute('width');g.nm=g.querySelector('title').textContent.replace(/ \\(\\d+ samples.*$/,'');\n"
	"  g.onmouseover=function(){det.textContent=g.querySelector('title').textContent;};\n"
	"  g.onmouseout=function(){det.textContent=' ';};g.onclick=function(){zoom(g);};});\n"
	" tot=fs.length?+fs[0].getAttribute('data-c'):0;fs.forEach(fit);}\n"
	"function fit(g){var r=g.querySelector('rect'),t=g.querySelector('text'),w=+r.getAttribute('width');\n"
	" var n=Math.floor((w-6)/7);t.setAttribute('x',+r.getAttribute('x')+3);\n"
	" t.textContent=n>=g.nm.length?g.nm:(n>2?g.nm.substring(0,n-2)+'..':'');}\n"
	"function zoom(z){var x0=z.ox,w0=z.ow,d0=+z.getAttribute('data-d'),k=(W-2*P)/w0;\n"
	" fs.forEach(function(g){var r=g.querySelector('rect'),d=+g.getAttribute('data-d');\n"
	"  var inside=g.ox>=x0-1e-6&&g.ox+g.ow<=x0+w0+1e-6;\n"
	"  if(d>=d0&&inside){r.setAttribute('x',P+(g.ox-x0)*k);r.setAttribute('width',g.ow*k);g.style.display='';}\n"
	"  else if(d<d0&&g.ox<=x0+1e-6&&g.ox+g.ow>=x0+w0-1e-6){r.setAttribute('x',P);r.setAttribute('width',W-2*P);g.style.opacity=0.6;g.style.display='';}\n"
	"  else g.style.display='none';fit(g);});}\n"
	"function unzoom(){fs.forEach(function(g){var r=g.querySelector('rect');r.setAttribute('x',g.ox);\n"
	" r.setAttribute('width',g.ow);g.style.display='';g.style.opacity='';fit(g);});}\n"
	"function search(){var t=prompt('Search (regular expression)','');if(t===null)return;var re=new RegExp(t),m=0,seen=[];\n"
	" fs.forEach(function(g){var r=g.querySelector('rect');if(t&&re.test(g.nm)){r.setAttribute('fill','rgb(230,0,230)');\n"
	"  var c=+g.getAttribute('data-c'),x=g.ox;if(!seen.some(function(s){return x>=s[0]&&x<s[1];})){seen.push([x,x+g.ow]);m+=c;}}\n"
	"  else if(r.getAttribute('data-f'))r.setAttribute('fill',r.getAttribute('data-f'));});\n"
	" srch.textContent=t?('Matched: '+(tot?(100*m/tot).toFixed(2):0)+'%'):'';}\n"
	"]]></script>\n";

int pl_flame_write_svg(const struct pl_flame *f, FILE *out, const char *title,
		       const struct pl_flame_timeline *tl)
{
	int depth = max_depth(f, 0) + 1;
	double tl_h = 0;
	if (tl && tl->nrows && tl->nbuckets)
		tl_h = 20.0 + (double)tl->nrows * 14.0 + 10.0;
	double top = 50.0 + tl_h;
	double height = top + depth * FH + 30.0;
	fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		     "<svg version=\"1.1\" width=\"%.0f\" height=\"%.0f\" onload=\"init()\" "
		     "viewBox=\"0 0 %.0f %.0f\" xmlns=\"http://www.w3.org/2000/svg\">\n",
		W, height, W, height);
	fputs("<style>text{font-family:Verdana,sans-serif;font-size:12px;fill:#000}"
	      "g.f:hover rect{stroke:#000;stroke-width:0.5}g.f{cursor:pointer}"
	      ".h{font-size:17px;text-anchor:middle}.b{cursor:pointer;fill:#222}</style>\n",
	      out);
	fputs(script, out);
	fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"#f8f8f0\"/>\n"
		     "<text class=\"h\" x=\"%.0f\" y=\"24\">",
		W / 2);
	xml_escape(out, title ? title : "Flame graph");
	fprintf(out, "</text>\n<text class=\"b\" x=\"%.0f\" y=\"24\" onclick=\"unzoom()\">Reset "
		     "zoom</text>\n<text class=\"b\" x=\"%.0f\" y=\"24\" onclick=\"search()\">"
		     "Search</text>\n<text id=\"srch\" x=\"%.0f\" y=\"%.0f\"> </text>\n"
		     "<text id=\"det\" x=\"%.0f\" y=\"%.0f\"> </text>\n",
		PAD, W - 120, W - 220, height - 10, PAD, height - 10);
	if (tl_h > 0) {
		uint64_t mx = 1;
		for (size_t i = 0; i < tl->nrows * tl->nbuckets; i++)
			if (tl->counts[i] > mx)
				mx = tl->counts[i];
		fprintf(out, "<g id=\"timeline\"><text x=\"%.0f\" y=\"%.0f\">Timeline (%.0f ms "
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
				fprintf(out, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"12\" "
					     "fill=\"rgb(%d,%d,255)\"><title>%llu</title></rect>\n",
					PAD + lw + (double)b * bw, y, bw, shade, shade,
					(unsigned long long)c);
			}
		}
		fputs("</g>\n", out);
	}
	if (f->n[0].count)
		draw(f, out, 0, PAD, -1, top + depth * FH, f->n[0].count);
	fputs("</svg>\n", out);
	return ferror(out) ? -EIO : 0;
}
