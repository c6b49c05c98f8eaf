"""Where things are in a TOML file: the line of every key and array element.

tomllib gives values but no positions; error messages need file:line. This scanner walks the
text once, following only TOML's structure (tables, keys, arrays, inline tables, strings,
comments), and records the line on which each key path starts. Paths are tuples of keys and
array indices, as in the parsed document: ("grid", "-gpgpu_num_reg_banks", 1) is the second
value of that grid entry, ("points", 0, "-x") a key of the first [[points]] table. Values are
always taken from tomllib; a text this scanner misreads only costs a less precise line."""
import json
import re

_BARE = re.compile(r"[A-Za-z0-9_-]+")


class _Scanner:
    def __init__(self, text):
        self.s = text
        self.i = 0
        self.line = 1
        self.lines = {}
        self.aot = {}  # array-of-tables path -> tables seen so far

    # -- characters --------------------------------------------------------------
    def peek(self, k=1):
        return self.s[self.i:self.i + k]

    def advance(self, k=1):
        self.line += self.s.count("\n", self.i, self.i + k)
        self.i += k

    def skip_blank(self, newlines):
        """Spaces, comments and (when asked) line breaks."""
        while self.i < len(self.s):
            c = self.s[self.i]
            if c in " \t\r" or (newlines and c == "\n"):
                self.advance()
            elif c == "#":
                end = self.s.find("\n", self.i)
                self.advance((end if end >= 0 else len(self.s)) - self.i)
            else:
                break

    # -- tokens ------------------------------------------------------------------
    def string(self):
        """A string at the cursor; returns its text (escapes decoded for basic strings)."""
        for q in ('"""', "'''"):
            if self.peek(3) == q:
                end = self.s.find(q, self.i + 3)
                end = len(self.s) if end < 0 else end
                while self.s[end + 3:end + 4] == q[0]:  # up to two quotes may close the content
                    end += 1
                text = self.s[self.i + 3:end]
                self.advance(end + 3 - self.i)
                return text
        q = self.s[self.i]
        j = self.i + 1
        while j < len(self.s) and self.s[j] not in (q, "\n"):
            j += 2 if q == '"' and self.s[j] == "\\" else 1
        raw = self.s[self.i:j + 1]
        self.advance(j + 1 - self.i)
        if q == "'":
            return raw[1:-1]
        try:
            return json.loads(raw)
        except ValueError:
            return raw[1:-1]

    def key(self):
        """A dotted key; returns its parts."""
        parts = []
        while True:
            self.skip_blank(False)
            if self.peek() in ('"', "'"):
                parts.append(self.string())
            else:
                m = _BARE.match(self.s, self.i)
                if not m:
                    raise ValueError("key expected")
                parts.append(m.group(0))
                self.advance(m.end() - self.i)
            self.skip_blank(False)
            if self.peek() != ".":
                return tuple(parts)
            self.advance()

    def value(self, path):
        self.skip_blank(False)
        c = self.peek()
        if c in ('"', "'"):
            self.string()
        elif c == "[":
            self.array(path)
        elif c == "{":
            self.inline_table(path)
        else:  # number, boolean, date: up to a delimiter
            m = re.compile(r"[^,\]}\n#]*").match(self.s, self.i)
            self.advance(m.end() - self.i)

    def array(self, path):
        self.advance()  # [
        index = 0
        while True:
            self.skip_blank(True)
            if self.i >= len(self.s) or self.peek() == "]":
                self.advance()
                return
            self.lines.setdefault(path + (index,), self.line)
            self.value(path + (index,))
            self.skip_blank(True)
            if self.peek() == ",":
                self.advance()
                index += 1

    def inline_table(self, path):
        self.advance()  # {
        while True:
            self.skip_blank(False)
            if self.i >= len(self.s) or self.peek() == "}":
                self.advance()
                return
            line = self.line
            k = path + self.key()
            self.lines.setdefault(k, line)
            self.skip_blank(False)
            if self.peek() != "=":
                raise ValueError("= expected")
            self.advance()
            self.value(k)
            self.skip_blank(False)
            if self.peek() == ",":
                self.advance()

    # -- document ----------------------------------------------------------------
    def document(self):
        table = ()
        while True:
            self.skip_blank(True)
            if self.i >= len(self.s):
                return
            line = self.line
            if self.peek(2) == "[[":
                self.advance(2)
                name = self.key()
                self.advance(2)  # ]]
                n = self.aot.get(name, 0)
                self.aot[name] = n + 1
                table = name + (n,)
                self.lines.setdefault(name, line)
                self.lines.setdefault(table, line)
            elif self.peek() == "[":
                self.advance()
                table = self.key()
                self.advance()  # ]
                self.lines.setdefault(table, line)
            else:
                k = table + self.key()
                self.lines.setdefault(k, line)
                self.skip_blank(False)
                if self.peek() != "=":
                    raise ValueError("= expected")
                self.advance()
                self.value(k)


class LineMap:
    """line(path): the line of the longest known prefix of path (1 when nothing is known)."""

    def __init__(self, text):
        sc = _Scanner(text)
        try:
            sc.document()
        except (ValueError, IndexError):
            pass  # keep what was found before the text stopped making sense
        self._lines = sc.lines

    def line(self, *path):
        path = tuple(path)
        while path:
            if path in self._lines:
                return self._lines[path]
            path = path[:-1]
        return 1
