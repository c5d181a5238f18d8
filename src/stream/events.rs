//! Raw stream bytes into events: server-sent events (`data:` lines, joined,
//! dispatched at a blank line; `event:` names them; comments and `id:`/`retry:`
//! are skipped) and newline-delimited JSON (a line starting with `{` or `[` is
//! one event), in chunks cut anywhere, even inside a line or a character.

/// One event: the JSON text of an SSE event's `data` (or of one NDJSON line),
/// and its SSE `event:` name.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StreamEvent {
    /// The SSE `event:` field (`None` for NDJSON lines and unnamed events).
    pub name: Option<String>,
    /// The event's data: for every provider, one JSON document (or OpenAI's `[DONE]`).
    pub data: String,
}

/// Splits raw SSE or NDJSON bytes into [`StreamEvent`]s, in chunks cut anywhere.
///
/// ```
/// use schemacast::EventSplitter;
/// let mut split = EventSplitter::new();
/// let mut events = split.feed(b"event: ping\ndata: {\"a\"");
/// events.extend(split.feed(b":1}\n\ndata: [DONE]\n\n{\"b\":2}\n"));
/// events.extend(split.finish());
/// let data: Vec<&str> = events.iter().map(|e| e.data.as_str()).collect();
/// assert_eq!(data, ["{\"a\":1}", "[DONE]", "{\"b\":2}"]);
/// assert_eq!(events[0].name.as_deref(), Some("ping"));
/// ```
#[derive(Debug, Default)]
pub struct EventSplitter {
    /// The line read so far (bytes: a chunk may cut a character).
    line: Vec<u8>,
    /// The last byte was `\r` (a following `\n` belongs to it).
    after_cr: bool,
    /// A line was read: a byte order mark is only skipped before the first.
    past_first_line: bool,
    /// The event being gathered (its buffers are reused from event to event).
    event: StreamEvent,
    /// An `event:` line came for it (its name is in `name`).
    named: bool,
    name: String,
    /// A `data:` line came for it.
    has_data: bool,
}

impl EventSplitter {
    /// A splitter at the start of a stream.
    #[must_use]
    pub fn new() -> EventSplitter {
        EventSplitter::default()
    }

    /// Reads a chunk; returns the events it completed.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<StreamEvent> {
        let mut out = Vec::new();
        self.feed_each(bytes, |e| out.push(e.clone()));
        out
    }

    /// Reads a chunk, and gives each event it completes to `f`, in order. The
    /// same events as [`feed`](EventSplitter::feed), lent rather than
    /// returned: nothing is allocated for each event.
    ///
    /// ```
    /// use schemacast::EventSplitter;
    /// let mut split = EventSplitter::new();
    /// let mut data = Vec::new();
    /// split.feed_each(b"data: {\"a\":1}\n\ndata: {\"b\"", |e| data.push(e.data.clone()));
    /// split.feed_each(b":2}\n\n", |e| data.push(e.data.clone()));
    /// assert_eq!(data, ["{\"a\":1}", "{\"b\":2}"]);
    /// ```
    pub fn feed_each(&mut self, bytes: &[u8], mut f: impl FnMut(&StreamEvent)) {
        let mut rest = bytes;
        if self.after_cr && !rest.is_empty() {
            if rest[0] == b'\n' {
                rest = &rest[1..];
            }
            self.after_cr = false;
        }
        // The lines that end in this chunk (a chunk that cuts a character
        // cuts it after the last line's end).
        let ended = memchr::memrchr2(b'\n', b'\r', rest).map_or(0, |at| at + 1);
        let (lines, tail) = rest.split_at(ended);
        let mut from = 0;
        let mut valid = None;
        // (One search over the chunk: starting one per line cost more than
        // the line.)
        for at in memchr::memchr2_iter(b'\n', b'\r', lines) {
            if at < from {
                // The LF of a CRLF.
                continue;
            }
            if !self.line.is_empty() {
                self.line.extend_from_slice(&lines[from..at]);
                let line = std::mem::take(&mut self.line);
                self.take_line(&line, &mut f);
                self.line = line;
                self.line.clear();
            } else {
                // The lines wholly in this chunk are checked as UTF-8 at once,
                // and read where they lie.
                let text = valid.get_or_insert_with(|| (from, std::str::from_utf8(&lines[from..]).ok()));
                match text.1.and_then(|t| t.get(from - text.0..at - text.0)) {
                    Some(line) => self.take_text(line, &mut f),
                    None => self.take_line(&lines[from..at], &mut f),
                }
            }
            from = at + 1;
            if rest[at] == b'\r' {
                match rest.get(from) {
                    Some(b'\n') => from += 1,
                    None => self.after_cr = true,
                    Some(_) => {}
                }
            }
        }
        self.line.extend_from_slice(tail);
    }

    /// The stream ended: the events of its last, unterminated line, if any.
    pub fn finish(self) -> Vec<StreamEvent> {
        let mut out = Vec::new();
        self.finish_each(|e| out.push(e.clone()));
        out
    }

    /// [`finish`](EventSplitter::finish), lending each event to `f`.
    pub fn finish_each(mut self, mut f: impl FnMut(&StreamEvent)) {
        if !self.line.is_empty() {
            let line = std::mem::take(&mut self.line);
            self.take_line(&line, &mut f);
        }
        self.dispatch(&mut f);
    }

    /// Reads the line gathered so far. One byte order mark at the start of
    /// the stream is not part of it (the SSE standard says so; an NDJSON file
    /// saved by an editor may begin with one too).
    fn take_line(&mut self, bytes: &[u8], f: &mut impl FnMut(&StreamEvent)) {
        // (`from_utf8` first: the lossy reading walks a valid line far slower.)
        let text =
            std::str::from_utf8(bytes).map_or_else(|_| String::from_utf8_lossy(bytes), std::borrow::Cow::Borrowed);
        self.take_text(&text, f);
    }

    fn take_text(&mut self, text: &str, f: &mut impl FnMut(&StreamEvent)) {
        let first = !std::mem::replace(&mut self.past_first_line, true);
        let line = if first { text.strip_prefix('\u{feff}').unwrap_or(text) } else { text };
        self.line(line, f);
    }

    /// The event gathered so far, if it has data, goes to `f`; the next starts empty.
    fn dispatch(&mut self, f: &mut impl FnMut(&StreamEvent)) {
        if self.has_data {
            if self.named {
                self.event.name = Some(std::mem::take(&mut self.name));
            }
            f(&self.event);
            if let Some(name) = self.event.name.take() {
                self.name = name;
            }
        }
        self.name.clear();
        self.event.data.clear();
        (self.named, self.has_data) = (false, false);
    }

    fn line(&mut self, line: &str, f: &mut impl FnMut(&StreamEvent)) {
        // The lines of nearly every event, told by their first bytes (the
        // same reading as the field split below, without its search).
        if let Some(value) = line.strip_prefix("data:") {
            return self.data_line(value.strip_prefix(' ').unwrap_or(value));
        }
        if let Some(value) = line.strip_prefix("event:") {
            return self.event_line(value.strip_prefix(' ').unwrap_or(value));
        }
        if line.is_empty() {
            return self.dispatch(f);
        }
        let json = line.trim_start_matches([' ', '\t']);
        if json.starts_with(['{', '[']) {
            // An NDJSON line is an event of its own (indented or not: no SSE
            // field starts with a blank).
            self.dispatch(f);
            self.event.data.push_str(json);
            self.has_data = true;
            return self.dispatch(f);
        }
        let (field, value) = match line.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (line, ""),
        };
        match field {
            "data" => self.data_line(value),
            "event" => self.event_line(value),
            // Comments (`: …`), `id`, `retry` and unknown fields say nothing here.
            _ => {}
        }
    }

    /// A `data:` line's value.
    fn data_line(&mut self, value: &str) {
        if self.has_data {
            self.event.data.push('\n');
        }
        self.event.data.push_str(value);
        self.has_data = true;
    }

    /// An `event:` line's value.
    fn event_line(&mut self, value: &str) {
        self.name.clear();
        self.name.push_str(value);
        self.named = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The events of `chunks`, which `feed_each` lends alike.
    fn split(chunks: &[&[u8]]) -> Vec<StreamEvent> {
        let mut s = EventSplitter::new();
        let mut out: Vec<StreamEvent> = chunks.iter().flat_map(|c| s.feed(c)).collect();
        out.extend(s.finish());
        let mut each = EventSplitter::new();
        let mut lent = Vec::new();
        for c in chunks {
            each.feed_each(c, |e| lent.push(e.clone()));
        }
        each.finish_each(|e| lent.push(e.clone()));
        assert_eq!(lent, out, "feed_each lends what feed returns");
        out
    }

    fn ev(name: Option<&str>, data: &str) -> StreamEvent {
        StreamEvent { name: name.map(str::to_owned), data: data.to_owned() }
    }

    #[test]
    fn ok_sse_fields_lines_and_comments() {
        let got =
            split(&[b": comment\r\nevent: message_start\r\ndata: {\"a\":\r\ndata: 1}\r\nid: 7\r\n\r\ndata:[DONE]\n\n"]);
        assert_eq!(got, [ev(Some("message_start"), "{\"a\":\n1}"), ev(None, "[DONE]")]);
    }

    #[test]
    fn ok_chunks_cut_anywhere() {
        let text = "data: {\"t\": \"é\"}\r\n\r\n{\"n\": 1}\n{\"n\": 2}";
        let whole = split(&[text.as_bytes()]);
        assert_eq!(whole, [ev(None, "{\"t\": \"é\"}"), ev(None, "{\"n\": 1}"), ev(None, "{\"n\": 2}")]);
        let bytes = text.as_bytes();
        for i in 0..=bytes.len() {
            for j in i..=bytes.len() {
                assert_eq!(split(&[&bytes[..i], &bytes[i..j], &bytes[j..]]), whole, "cut at {i} and {j}");
            }
        }
    }

    #[test]
    fn ok_a_leading_byte_order_mark_is_skipped_wherever_the_chunks_cut_it() {
        for (text, want) in [
            ("\u{feff}data: {\"a\":1}\n\n", vec![ev(None, "{\"a\":1}")]),
            ("\u{feff}event: e\ndata: {}\n\n", vec![ev(Some("e"), "{}")]),
            ("\u{feff}{\"a\":1}\n{\"b\":2}", vec![ev(None, "{\"a\":1}"), ev(None, "{\"b\":2}")]),
            ("\u{feff}[1]\r\n", vec![ev(None, "[1]")]),
        ] {
            let bytes = text.as_bytes();
            for i in 0..=bytes.len() {
                for j in i..=bytes.len() {
                    assert_eq!(split(&[&bytes[..i], &bytes[i..j], &bytes[j..]]), want, "{text:?} cut at {i} and {j}");
                }
            }
        }
        // Only at the start of the stream: later, the mark is the line's own text.
        assert_eq!(split(&[b"{}\n", "\u{feff}{}\n".as_bytes()]), [ev(None, "{}")]);
        assert_eq!(split(&["data: \u{feff}x\n\n".as_bytes()]), [ev(None, "\u{feff}x")]);
    }

    mod props {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::default() })]

            /// Any bytes (lines cut anywhere, characters cut or invalid, CR
            /// and LF in any order), in any chunks: the events read one byte
            /// at a time.
            #[test]
            fn ok_chunks_read_as_bytes_one_by_one(
                bytes in prop::collection::vec(prop::sample::select(
                    b"data: {}event:x\r\n\r\n\n\xef\xbb\xbf\xc3\xa9\xff[1]".to_vec()), 0..80),
                cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..4),
            ) {
                let mut at: Vec<usize> = cuts.iter().map(|c| c.index(bytes.len() + 1)).collect();
                at.sort_unstable();
                let mut chunks = Vec::new();
                let mut from = 0;
                for &to in &at {
                    chunks.push(&bytes[from..to]);
                    from = to;
                }
                chunks.push(&bytes[from..]);
                let one_by_one: Vec<&[u8]> = bytes.chunks(1).collect();
                prop_assert_eq!(split(&chunks), split(&one_by_one));
            }
        }
    }

    /// A field line is split at its first colon, one space after it dropped,
    /// whether it is one of the lines read by their first bytes or not.
    #[test]
    fn ok_field_lines_split_at_the_first_colon() {
        let got = split(&[b"data:x\ndata:  y\ndata\ndatum: no\ndata: a:b\n\nevent\ndata: {}\n\nevent:e:f\ndata:1\n\n"]);
        assert_eq!(got, [ev(None, "x\n y\n\na:b"), ev(Some(""), "{}"), ev(Some("e:f"), "1")]);
    }

    #[test]
    fn ok_indented_ndjson_lines_are_events() {
        assert_eq!(split(&[b"  {\"a\":1}\n\t[2]\n data: x\n\n"]), [ev(None, "{\"a\":1}"), ev(None, "[2]")]);
    }
}
