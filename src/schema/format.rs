//! Hand-written checkers for the formats that can be asserted: RFC 3339
//! `date-time`, `date`, `time`; RFC 5321 `email` (dot-atom or quoted local
//! part, host name or address literal); RFC 1123 `hostname` (A-labels Punycode-decoded and checked
//! against IDNA2008: `super::idna`); `ipv4`, `ipv6`
//! (RFC 4291 text forms, no zone); RFC 3986 `uri` and `uri-reference`;
//! RFC 4122 `uuid`; RFC 6901 `json-pointer`, `relative-json-pointer`;
//! `regex` (ECMA-262 syntax, through our translation). Each is a plain
//! function over `&str`, allocation-free but for `regex` (in
//! `format/regex_pieces.rs`).

mod regex_pieces;

use regex_pieces::{REGEX_PIECE, regex_holds};

/// A format whose assertion is implemented.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    DateTime,
    Date,
    Time,
    Email,
    Hostname,
    Ipv4,
    Ipv6,
    Uri,
    UriReference,
    Uuid,
    JsonPointer,
    RelativeJsonPointer,
    Regex,
    Duration,
    UriTemplate,
}

impl Format {
    /// The JSON Schema formats that have no checker here: under
    /// `assert_formats` they stay annotations, listed by
    /// `ignored_keywords` (and refused by the decoder, which cannot follow
    /// them exactly).
    pub(crate) const UNASSERTED: &'static [&'static str] =
        &["idn-email", "idn-hostname", "iri", "iri-reference"];

    pub(crate) fn from_name(name: &str) -> Option<Format> {
        Some(match name {
            "date-time" => Format::DateTime,
            "date" => Format::Date,
            "time" => Format::Time,
            "email" => Format::Email,
            "hostname" => Format::Hostname,
            "ipv4" => Format::Ipv4,
            "ipv6" => Format::Ipv6,
            "uri" => Format::Uri,
            "uri-reference" => Format::UriReference,
            "uuid" => Format::Uuid,
            "json-pointer" => Format::JsonPointer,
            "relative-json-pointer" => Format::RelativeJsonPointer,
            "regex" => Format::Regex,
            "duration" => Format::Duration,
            "uri-template" => Format::UriTemplate,
            _ => return None,
        })
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Format::DateTime => "date-time",
            Format::Date => "date",
            Format::Time => "time",
            Format::Email => "email",
            Format::Hostname => "hostname",
            Format::Ipv4 => "ipv4",
            Format::Ipv6 => "ipv6",
            Format::Uri => "uri",
            Format::UriReference => "uri-reference",
            Format::Uuid => "uuid",
            Format::JsonPointer => "json-pointer",
            Format::RelativeJsonPointer => "relative-json-pointer",
            Format::Regex => "regex",
            Format::Duration => "duration",
            Format::UriTemplate => "uri-template",
        }
    }

    pub(crate) fn check(self, s: &str) -> bool {
        match self {
            Format::DateTime => date_time(s),
            Format::Date => date(s),
            Format::Time => time(s),
            Format::Email => email(s),
            Format::Hostname => hostname(s),
            Format::Ipv4 => ipv4(s),
            Format::Ipv6 => ipv6(s),
            Format::Uri => uri(s, false),
            Format::UriReference => uri(s, true),
            Format::Uuid => uuid(s),
            Format::JsonPointer => json_pointer(s),
            Format::RelativeJsonPointer => relative_json_pointer(s),
            // Translated and parsed, never built: ECMA-262 sets no size
            // limit, and an instance must not make the check build a large
            // matcher.
            Format::Regex => regex_holds(s, REGEX_PIECE),
            Format::Duration => duration(s),
            Format::UriTemplate => uri_template(s),
        }
    }
}

fn digits(b: &[u8], at: usize, n: usize) -> Option<u32> {
    let mut v = 0;
    for k in 0..n {
        let c = *b.get(at + k)?;
        if !c.is_ascii_digit() {
            return None;
        }
        v = v * 10 + u32::from(c - b'0');
    }
    Some(v)
}

/// Days in `month` of `year` (29 February in leap years); 0 for no month.
pub(crate) fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400) => {
            29
        }
        2 => 28,
        _ => 0,
    }
}

/// `full-date`: YYYY-MM-DD.
fn date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    match (digits(b, 0, 4), digits(b, 5, 2), digits(b, 8, 2)) {
        (Some(y), Some(m), Some(d)) => (1..=12).contains(&m) && d >= 1 && d <= days_in_month(y, m),
        _ => false,
    }
}

/// `full-time`: HH:MM:SS[.frac](Z|±HH:MM), leap second only at 23:59 UTC.
fn time(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 9 || b[2] != b':' || b[5] != b':' {
        return false;
    }
    let (Some(h), Some(m), Some(sec)) = (digits(b, 0, 2), digits(b, 3, 2), digits(b, 6, 2)) else {
        return false;
    };
    let mut i = 8;
    if b.get(i) == Some(&b'.') {
        i += 1;
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    let (oh, om, sign): (u32, u32, i32) = match b.get(i) {
        Some(b'Z' | b'z') if i + 1 == b.len() => (0, 0, 0),
        Some(c @ (b'+' | b'-')) if i + 6 == b.len() && b[i + 3] == b':' => {
            match (digits(b, i + 1, 2), digits(b, i + 4, 2)) {
                (Some(oh), Some(om)) => (oh, om, if *c == b'+' { 1 } else { -1 }),
                _ => return false,
            }
        }
        _ => return false,
    };
    if h > 23 || m > 59 || sec > 60 || oh > 23 || om > 59 {
        return false;
    }
    if sec == 60 {
        // UTC = local - offset.
        let local = (h * 60 + m) as i32;
        let utc = (local - sign * (oh * 60 + om) as i32).rem_euclid(24 * 60);
        return utc == 23 * 60 + 59;
    }
    true
}

fn date_time(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() > 11
        && matches!(b[10], b'T' | b't')
        && s.is_char_boundary(10)
        && date(&s[..10])
        && time(&s[11..])
}

fn hostname(s: &str) -> bool {
    if s.is_empty() || s.len() > 253 {
        return false;
    }
    s.split('.').all(|label| {
        let b = label.as_bytes();
        !b.is_empty()
            && b.len() <= 63
            && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
            && b[0] != b'-'
            && b[b.len() - 1] != b'-'
            // "--" in positions 3-4 is reserved for A-labels ("xn--"),
            // which must decode to a valid U-label (RFC 5891).
            && if b.len() >= 4 && &b[2..4] == b"--" {
                b[..2].eq_ignore_ascii_case(b"xn") && super::idna::a_label_ok(&label[4..])
            } else {
                true
            }
    })
}

fn ipv4(s: &str) -> bool {
    let mut n = 0;
    for part in s.split('.') {
        n += 1;
        let b = part.as_bytes();
        if b.is_empty()
            || b.len() > 3
            || !b.iter().all(u8::is_ascii_digit)
            || (b.len() > 1 && b[0] == b'0')
        {
            return false;
        }
        if part.parse::<u16>().map_or(true, |v| v > 255) {
            return false;
        }
    }
    n == 4
}

fn ipv6(s: &str) -> bool {
    if s.is_empty() || !s.is_ascii() {
        return false;
    }
    let (head, tail, compressed) = match s.find("::") {
        Some(i) => (&s[..i], &s[i + 2..], true),
        None => (s, "", false),
    };
    if compressed && tail.contains("::") {
        return false;
    }
    let groups = |part: &str, allow_v4_last: bool| -> Option<usize> {
        if part.is_empty() {
            return Some(0);
        }
        let pieces: Vec<&str> = part.split(':').collect();
        let mut count = 0;
        for (k, p) in pieces.iter().enumerate() {
            if allow_v4_last && k + 1 == pieces.len() && p.contains('.') {
                if !ipv4(p) {
                    return None;
                }
                count += 2;
            } else if !p.is_empty() && p.len() <= 4 && p.bytes().all(|c| c.is_ascii_hexdigit()) {
                count += 1;
            } else {
                return None;
            }
        }
        Some(count)
    };
    if compressed {
        match (groups(head, false), groups(tail, true)) {
            (Some(h), Some(t)) => h + t <= 7,
            _ => false,
        }
    } else {
        groups(head, true) == Some(8)
    }
}

fn uuid(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

fn is_unreserved(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"-._~".contains(&c)
}

fn is_sub_delim(c: u8) -> bool {
    b"!$&'()*+,;=".contains(&c)
}

/// Checks `s` holds only `allowed` characters and well-formed `%XX`.
fn chars_ok(s: &[u8], allowed: impl Fn(u8) -> bool) -> bool {
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        if c == b'%' {
            if !(s.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
                && s.get(i + 2).is_some_and(u8::is_ascii_hexdigit))
            {
                return false;
            }
            i += 3;
            continue;
        }
        if !allowed(c) {
            return false;
        }
        i += 1;
    }
    true
}

fn pchar(c: u8) -> bool {
    is_unreserved(c) || is_sub_delim(c) || c == b':' || c == b'@'
}

/// RFC 3986 `URI` (or `URI-reference` when `relative_ok`).
fn uri(s: &str, relative_ok: bool) -> bool {
    let b = s.as_bytes();
    let (frag_part, fragment) = match s.find('#') {
        Some(i) => (&b[..i], Some(&b[i + 1..])),
        None => (b, None),
    };
    if let Some(f) = fragment
        && !chars_ok(f, |c| pchar(c) || c == b'/' || c == b'?')
    {
        return false;
    }
    let (rest, query) = match frag_part.iter().position(|&c| c == b'?') {
        Some(i) => (&frag_part[..i], Some(&frag_part[i + 1..])),
        None => (frag_part, None),
    };
    if let Some(q) = query
        && !chars_ok(q, |c| pchar(c) || c == b'/' || c == b'?')
    {
        return false;
    }
    // Scheme: up to the first ':' if it comes before any '/'.
    let colon = rest.iter().position(|&c| c == b':');
    let slash = rest.iter().position(|&c| c == b'/');
    let mut hier = rest;
    match colon {
        Some(ci) if slash.is_none_or(|si| ci < si) => {
            let scheme = &rest[..ci];
            if scheme.is_empty()
                || !scheme[0].is_ascii_alphabetic()
                || !scheme
                    .iter()
                    .all(|c| c.is_ascii_alphanumeric() || b"+-.".contains(c))
            {
                return false;
            }
            hier = &rest[ci + 1..];
        }
        _ => {
            if !relative_ok {
                return false;
            }
            // A relative reference's first segment may not contain ':'.
        }
    }
    let path = if let Some(after) = hier.strip_prefix(b"//") {
        let end = after.iter().position(|&c| c == b'/').unwrap_or(after.len());
        if !authority(&after[..end]) {
            return false;
        }
        &after[end..]
    } else {
        hier
    };
    chars_ok(path, |c| pchar(c) || c == b'/')
}

/// RFC 3986 3.2.2: `IPvFuture = "v" 1*HEXDIG "." 1*( unreserved /
/// sub-delims / ":" )`.
fn ip_future(b: &[u8]) -> bool {
    let Some(rest) = b.strip_prefix(b"v").or_else(|| b.strip_prefix(b"V")) else {
        return false;
    };
    let hex = rest.iter().take_while(|c| c.is_ascii_hexdigit()).count();
    match rest.get(hex..) {
        Some([b'.', tail @ ..]) if hex > 0 && !tail.is_empty() => tail
            .iter()
            .all(|&c| is_unreserved(c) || is_sub_delim(c) || c == b':'),
        _ => false,
    }
}

fn authority(a: &[u8]) -> bool {
    let (userinfo, hostport) = match a.iter().rposition(|&c| c == b'@') {
        Some(i) => (Some(&a[..i]), &a[i + 1..]),
        None => (None, a),
    };
    if let Some(u) = userinfo
        && !chars_ok(u, |c| is_unreserved(c) || is_sub_delim(c) || c == b':')
    {
        return false;
    }
    let (host, port) = if hostport.first() == Some(&b'[') {
        let Some(close) = hostport.iter().position(|&c| c == b']') else {
            return false;
        };
        let inner = &hostport[1..close];
        if !(ip_future(inner) || ipv6(std::str::from_utf8(inner).unwrap_or(""))) {
            return false;
        }
        let rest = &hostport[close + 1..];
        match rest.first() {
            None => (&hostport[..0], None),
            Some(b':') => (&hostport[..0], Some(&rest[1..])),
            _ => return false,
        }
    } else {
        match hostport.iter().rposition(|&c| c == b':') {
            Some(i) => (&hostport[..i], Some(&hostport[i + 1..])),
            None => (hostport, None),
        }
    };
    if let Some(p) = port
        && !p.iter().all(u8::is_ascii_digit)
    {
        return false;
    }
    chars_ok(host, |c| is_unreserved(c) || is_sub_delim(c))
}

fn email(s: &str) -> bool {
    let Some(at) = s.rfind('@') else {
        return false;
    };
    let (local, domain) = (&s[..at], &s[at + 1..]);
    let local_ok = if local.len() >= 2 && local.starts_with('"') && local.ends_with('"') {
        // RFC 5321 4.5.3.1.1: at most 64 octets, the quotes included.
        let inner = &local.as_bytes()[1..local.len() - 1];
        let mut i = 0;
        let mut ok = local.len() <= 64;
        while ok && i < inner.len() {
            match inner[i] {
                // RFC 5321 4.1.2: `quoted-pairSMTP = %d92 %d32-126`; a tab
                // too, as RFC 5322's `"\" (VCHAR / WSP)` has it (a bare tab
                // is taken below, as RFC 5322's FWS).
                b'\\'
                    if inner
                        .get(i + 1)
                        .is_some_and(|&c| (32..=126).contains(&c) || c == b'\t') =>
                {
                    i += 2
                }
                // A backslash is only ever the start of a quoted pair.
                b'\\' => {
                    ok = false;
                    break;
                }
                b'"' => {
                    ok = false;
                    break;
                }
                c if c == b' ' || c == b'\t' || (0x21..0x7f).contains(&c) => i += 1,
                _ => {
                    ok = false;
                    break;
                }
            }
        }
        ok && i == inner.len()
    } else {
        !local.is_empty()
            && local.len() <= 64
            && local.split('.').all(|atom| {
                !atom.is_empty()
                    && atom
                        .bytes()
                        .all(|c| c.is_ascii_alphanumeric() || b"!#$%&'*+-/=?^_`{|}~".contains(&c))
            })
    };
    if !local_ok {
        return false;
    }
    if let Some(lit) = domain.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
        // RFC 5321 4.1.3 `"IPv6:" IPv6-addr`; ABNF strings are
        // case-insensitive (RFC 5234 2.3).
        return match lit.get(..5) {
            Some(tag) if tag.eq_ignore_ascii_case("IPv6:") => ipv6(&lit[5..]),
            _ => ipv4(lit),
        };
    }
    hostname(domain)
}

fn json_pointer(s: &str) -> bool {
    if s.is_empty() {
        return true;
    }
    if !s.starts_with('/') {
        return false;
    }
    let b = s.as_bytes();
    b.iter()
        .enumerate()
        .all(|(i, &c)| c != b'~' || matches!(b.get(i + 1), Some(b'0' | b'1')))
}

fn relative_json_pointer(s: &str) -> bool {
    let b = s.as_bytes();
    let n = b.iter().take_while(|c| c.is_ascii_digit()).count();
    if n == 0 || (n > 1 && b[0] == b'0') {
        return false;
    }
    let rest = &s[n..];
    rest == "#" || json_pointer(rest)
}

/// ISO 8601 duration as RFC 3339 appendix A: P[nY][nM][nD][T[nH][nM][nS]] or PnW.
fn duration(s: &str) -> bool {
    let Some(rest) = s.strip_prefix('P') else {
        return false;
    };
    if rest.is_empty() {
        return false;
    }
    if let Some(w) = rest.strip_suffix('W') {
        return !w.is_empty() && w.bytes().all(|c| c.is_ascii_digit());
    }
    let (date_part, time_part) = match rest.find('T') {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    let units_ok = |part: &str, units: &[u8]| -> Option<usize> {
        let b = part.as_bytes();
        let mut i = 0;
        let mut last = 0usize;
        let mut count = 0;
        while i < b.len() {
            let start = i;
            while b.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            if i == start {
                return None;
            }
            let u = *b.get(i)?;
            let pos = units.iter().position(|&x| x == u)? + 1;
            // RFC 3339 appendix A: `dur-year = 1*DIGIT "Y" [dur-month]`,
            // `dur-hour = 1*DIGIT "H" [dur-minute]` and so on: after the
            // first unit, only the next one (no day straight after a year).
            if (last > 0 && pos != last + 1) || pos <= last {
                return None;
            }
            last = pos;
            count += 1;
            i += 1;
        }
        Some(count)
    };
    let Some(dn) = units_ok(date_part, b"YMD") else {
        return false;
    };
    match time_part {
        None => dn > 0,
        Some(t) => units_ok(t, b"HMS").is_some_and(|n| n > 0),
    }
}

/// RFC 6570 syntax: literals and `{op? varspec(,varspec)*}` expressions.
fn uri_template(s: &str) -> bool {
    let b = s.as_bytes();
    let pct = |i: usize| {
        b.get(i + 1).is_some_and(u8::is_ascii_hexdigit)
            && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
    };
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'{' {
            let Some(close) = b[i..].iter().position(|&x| x == b'}') else {
                return false;
            };
            let mut e = &b[i + 1..i + close];
            if let Some(&op) = e.first()
                && b"+#./;?&=,!@|".contains(&op)
            {
                e = &e[1..];
            }
            if e.is_empty() {
                return false;
            }
            for spec in e.split(|&x| x == b',') {
                let (name, modifier) = match spec.iter().position(|&x| x == b':' || x == b'*') {
                    Some(k) => (&spec[..k], &spec[k..]),
                    None => (spec, &spec[..0]),
                };
                let mut k = 0;
                let mut prev_dot = true;
                if name.is_empty() {
                    return false;
                }
                while k < name.len() {
                    match name[k] {
                        b'%' if name.get(k + 1).is_some_and(u8::is_ascii_hexdigit)
                            && name.get(k + 2).is_some_and(u8::is_ascii_hexdigit) =>
                        {
                            k += 3;
                            prev_dot = false;
                            continue;
                        }
                        b'.' if !prev_dot => prev_dot = true,
                        x if x.is_ascii_alphanumeric() || x == b'_' => prev_dot = false,
                        _ => return false,
                    }
                    k += 1;
                }
                if prev_dot {
                    return false;
                }
                match modifier {
                    [] | [b'*'] => {}
                    [b':', digits @ ..] => {
                        if digits.is_empty()
                            || digits.len() > 4
                            || digits[0] == b'0'
                            || !digits.iter().all(u8::is_ascii_digit)
                        {
                            return false;
                        }
                    }
                    _ => return false,
                }
            }
            i += close + 1;
            continue;
        }
        if c == b'%' {
            if !pct(i) {
                return false;
            }
            i += 3;
            continue;
        }
        if c < 0x21 || c == 0x7f || b"\"<>\\^`{|}".contains(&c) {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::Format;

    #[test]
    fn samples() {
        let ok = |f: &str, s: &str| Format::from_name(f).unwrap().check(s);
        assert!(ok("date-time", "1998-12-31T23:59:60Z"));
        assert!(!ok("date-time", "1998-12-31T23:58:60Z"));
        assert!(ok("time", "15:59:60-08:00"));
        assert!(!ok("date", "2021-02-29"));
        assert!(ok("date", "2020-02-29"));
        assert!(ok("email", "\"joe bloggs\"@example.com"));
        assert!(!ok("email", "te..st@example.com"));
        assert!(ok("ipv6", "1::d6:192.168.0.1"));
        assert!(!ok("ipv6", "1::d6::42"));
        assert!(ok(
            "uri",
            "http://-.~_!$&'()*+,;=:%40:80%2f::::::@example.com"
        ));
        assert!(!ok("uri", "abc"));
        assert!(ok("uuid", "2eb8aa08-AA98-11ea-B4Aa-73B441D16380"));
        assert!(!ok("hostname", "-a.com"));
        assert!(ok("ipv4", "192.168.0.1"));
        assert!(!ok("ipv4", "087.10.0.1"));
        assert!(ok(
            "uri-template",
            "http://example.com/{+path}{?x,y*}{/z:3}"
        ));
        assert!(!ok("uri-template", "http://example.com/resource/{"));
    }

    #[test]
    fn a_regex_checked_in_pieces_agrees_with_one_check() {
        // Patterns from a small alphabet of atoms, quantifiers, groups and
        // classes, cut into pieces of 1 to 6 bytes.
        let atoms = [
            "a",
            "é",
            "bc",
            "[abcd]",
            "[xéyz-w]",
            "[^abc\\d]",
            "[a\\-bc]",
            "[\\u00e9bcd]",
            "[c-a]",
            "(",
            ")",
            "(?:",
            "(?<n>",
            "(?<m>",
            "(?=",
            "[a-c]",
            "[^]",
            "[]",
            "[",
            "]",
            "\\d",
            "\\u00e9",
            "\\uD83D\\uDE00",
            "\\uD83D",
            "\\u{1F600}",
            "\\p{L}",
            "\\1",
            "*",
            "+?",
            "{2}",
            "{2,1}",
            "{",
            "}",
            "|",
            "^",
            "$",
            ".",
            "\\",
            "x{1,3}",
        ];
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..20_000 {
            let n = 1 + next() % 16;
            let p: String = (0..n)
                .map(|_| atoms[(next() % atoms.len() as u64) as usize])
                .collect();
            let whole = super::super::pattern::ecma::check(&p).is_ok();
            for piece in 1..=6 {
                assert_eq!(
                    super::regex_pieces::regex_holds(&p, piece),
                    whole,
                    "{p:?} in pieces of {piece}"
                );
            }
        }
    }
}
