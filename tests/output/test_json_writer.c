/* JSON strings: quotes, backslashes and control bytes escaped, UTF-8 kept
 * as it is, and every byte that is not well-formed UTF-8 (a stray
 * continuation byte, 0xff, an overlong form, a surrogate, a sequence cut
 * short) written as \ufffd, so that the document is valid UTF-8. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "output/json_writer.h"

static char *json(const char *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	sb_json_string(f, s);
	fclose(f);
	return text;
}

static void expect(const char *in, const char *want)
{
	char *got = json(in);
	CHECK(strcmp(got, want) == 0, "'%s' gave %s, want %s", in, got, want);
	free(got);
}

int main(void)
{
	expect("plain", "\"plain\"");
	expect(NULL, "\"\"");
	expect("a\"b\\c\n\x7f", "\"a\\\"b\\\\c\\u000a\\u007f\"");
	expect("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
	expect("\xff", "\"\\ufffd\"");
	expect("x\x80y", "\"x\\ufffdy\"");
	expect("\xc0\xaf", "\"\\ufffd\\ufffd\"");         /* overlong '/' */
	expect("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\""); /* a surrogate */
	expect("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\""); /* above U+10FFFF */
	expect("\xe2\x82", "\"\\ufffd\\ufffd\"");          /* cut short at the end */
	expect("\xe2\x82z", "\"\\ufffd\\ufffdz\"");
	return check_report("json_writer");
}
