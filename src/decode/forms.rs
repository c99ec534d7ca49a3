//! The asserted formats that no pattern the crate reads can state, as
//! hand-built automata: RFC 3339 `date-time` and `time`, RFC 3986 `uri`
//! and `uri-reference`. Each steps exactly as the format checker
//! (`schema::format`) decides, one ASCII character at a time, with its
//! state packed into the `u64` of a pattern state (0: nothing read).
//!
//! Two promises make the token mask exact. A step returns a state only
//! when some completion from it is valid (every returned state is live).
//! And the lengths of the completions from a state have a closed form
//! ([`Lens`]): the shortest, then either nothing more (an offset being
//! written), every length after it (a URI: any accepted URI takes one more
//! character and stays accepted), or every length after it but the next
//! (a `date-time` before its fraction: `Z` is one character, `.0Z` three),
//! so `minLength` / `maxLength` are decided exactly too.
//!
//! Advice for hackers: the checker splits a URI at the first `#`, then
//! the first `?`, then reads a scheme up to the first `:` that comes
//! before any `/`; the authority's userinfo ends at its *last* `@` and its
//! port starts at the last `:`. Read left to right that means: at most
//! one `@` (userinfo cannot hold `@`), a host without `:`, and, before an
//! `@` is seen, text that is either userinfo or `host:port`. The leap
//! second is allowed when the time minus its offset is 23:59 UTC: for a
//! sign there is exactly one offset that does it, so each of its digits
//! is fixed.

use crate::schema::decode_view::{Format, days_in_month};

/// A format decoded by a hand-built automaton.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Hand {
    DateTime,
    Time,
    Uri,
    UriReference,
    Ipv6,
    Hostname,
    Email,
}

/// The lengths of the valid completions from a state: `min`, and, when
/// `open`, every length past it up to `max`, but `min + 1` when `gap`;
/// or, for a short part, exactly the lengths whose bits `set` holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Lens {
    min: u64,
    open: bool,
    gap: bool,
    max: u64,
    set: Option<u64>,
}

impl Lens {
    fn run(min: u64, max: u64, gap: bool) -> Lens {
        Lens {
            min,
            open: max > min,
            gap,
            max,
            set: None,
        }
    }

    fn exactly(min: u64) -> Lens {
        Lens::run(min, min, false)
    }

    fn at_least(min: u64) -> Lens {
        Lens::run(min, u64::MAX, false)
    }

    fn gapped(min: u64) -> Lens {
        Lens::run(min, u64::MAX, true)
    }

    /// The lengths below 64 whose bits are set (at least one).
    fn set(bits: u64) -> Lens {
        Lens {
            min: u64::from(bits.trailing_zeros()),
            open: false,
            gap: false,
            max: u64::from(63 - bits.leading_zeros().min(63)),
            set: Some(bits),
        }
    }

    fn holds(self, l: u64) -> bool {
        if let Some(bits) = self.set {
            return l < 64 && bits >> l & 1 == 1;
        }
        l == self.min
            || (self.open && l > self.min && l <= self.max && !(self.gap && l == self.min + 1))
    }

    /// The least length in `a..=b`.
    fn first_in(self, a: u64, b: u64) -> Option<u64> {
        if let Some(bits) = self.set {
            let from = if a >= 64 { 0 } else { bits >> a << a };
            let l = u64::from(from.trailing_zeros());
            return (from != 0 && l <= b).then_some(l);
        }
        let l = if a <= self.min {
            self.min
        } else if !self.open {
            return None;
        } else if self.gap && a == self.min + 1 {
            self.min + 2
        } else {
            a
        };
        (l <= b && l <= self.max).then_some(l)
    }
}

impl Hand {
    /// The hand-built automaton of an asserted format, if it has one.
    pub(crate) fn of(f: Format) -> Option<Hand> {
        Some(match f {
            Format::DateTime => Hand::DateTime,
            Format::Time => Hand::Time,
            Format::Uri => Hand::Uri,
            Format::UriReference => Hand::UriReference,
            Format::Ipv6 => Hand::Ipv6,
            Format::Hostname => Hand::Hostname,
            Format::Email => Hand::Email,
            _ => return None,
        })
    }

    /// A state with at least the room of `at` that steps as `at` does
    /// for as long as neither runs out, and how many characters `at` may
    /// still take before one of its counts binds (`u64::MAX`: none). The
    /// tokens that stay inside the string from the two are the same when
    /// every such token is shorter than that (less 2: a step looks one
    /// character ahead).
    pub(crate) fn canon(self, at: u64) -> (u64, u64) {
        match self {
            Hand::Hostname => net::host_canon(at),
            Hand::Email => net::email_canon(at),
            _ => (at, u64::MAX),
        }
    }

    /// Whether the text read up to state `at` is valid.
    pub(crate) fn accepts(self, at: u64) -> bool {
        match self {
            Hand::DateTime | Hand::Time => matches!(Dt::unpack(self, at).phase, 22 | 28),
            Hand::Uri | Hand::UriReference => Ur::unpack(at).accepts(self),
            Hand::Ipv6 => net::ipv6_accepts(at),
            Hand::Hostname => net::Host::unpack(at).accepts(),
            Hand::Email => net::email_accepts(at),
        }
    }

    /// The state after character `c`, if a valid completion follows.
    pub(crate) fn step(self, at: u64, c: char) -> Option<u64> {
        let c = u8::try_from(c).ok().filter(u8::is_ascii)?;
        match self {
            Hand::DateTime | Hand::Time => Dt::unpack(self, at).step(c).map(Dt::pack),
            Hand::Uri | Hand::UriReference => Ur::unpack(at).step(self, c).map(Ur::pack),
            Hand::Ipv6 => net::ipv6_step(at, c),
            Hand::Hostname => net::Host::unpack(at).step(c).map(net::Host::pack),
            Hand::Email => net::email_step(at, c),
        }
    }

    fn lens(self, at: u64) -> Lens {
        match self {
            Hand::DateTime | Hand::Time => Dt::unpack(self, at).lens(),
            Hand::Uri | Hand::UriReference => Ur::unpack(at).lens(self),
            Hand::Ipv6 => net::ipv6_lens(at),
            Hand::Hostname => net::Host::unpack(at).lens(),
            Hand::Email => net::email_lens(at),
        }
    }

    /// Whether from state `at` a valid completion of `a..=b` characters
    /// exists.
    pub(crate) fn viable(self, at: u64, a: u64, b: u64) -> bool {
        // Every state is live: without bounds there is nothing to work out.
        (a == 0 && b == u64::MAX) || self.lens(at).first_in(a, b).is_some()
    }

    /// A character in `ranges` (a code point still being written) after
    /// which a valid completion of `a..=b` more characters exists.
    pub(crate) fn pick_pending(
        self,
        at: u64,
        ranges: &[(u32, u32)],
        a: u64,
        b: u64,
    ) -> Option<char> {
        ranges.iter().find_map(|&(lo, hi)| {
            (lo..=hi.min(0x7F)).find_map(|cp| {
                let c = char::from_u32(cp)?;
                let next = self.step(at, c)?;
                self.viable(next, a, b).then_some(c)
            })
        })
    }

    /// The shortest valid completion from state `at` of `a..=b`
    /// characters: the least such length, then each character the first
    /// (in [`PREFERRED`] order) after which that length stays possible.
    pub(crate) fn rest(self, at: u64, a: u64, b: u64) -> Option<Vec<char>> {
        let len = self.lens(at).first_in(a, b)?;
        let mut out = Vec::with_capacity(usize::try_from(len).ok()?);
        let mut cur = at;
        for left in (0..len).rev() {
            let (c, next) = PREFERRED.iter().find_map(|&c| {
                let c = char::from(c);
                let next = self.step(cur, c)?;
                self.lens(next).holds(left).then_some((c, next))
            })?;
            out.push(c);
            cur = next;
        }
        Some(out)
    }
}

/// The order in which completions try characters: each printable ASCII
/// character once (no format here takes a control character).
const PREFERRED: &[u8] =
    b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ:-./@?#%[]+_~!$&'()*,;= \"<>\\^`{|}";

/// Puts fields into (and takes them out of) a `u64`, low bits first.
struct Bits {
    word: u64,
    at: u32,
}

impl Bits {
    fn new(word: u64) -> Bits {
        Bits { word, at: 0 }
    }

    fn put(&mut self, v: impl Into<u64>, width: u32) {
        self.word |= (v.into() & ((1 << width) - 1)) << self.at;
        self.at += width;
    }

    fn take(&mut self, width: u32) -> u64 {
        let v = self.word >> self.at & ((1 << width) - 1);
        self.at += width;
        v
    }

    fn take_u8(&mut self, width: u32) -> u8 {
        self.take(width) as u8
    }
}

fn digit(c: u8) -> Option<u8> {
    c.is_ascii_digit().then(|| c - b'0')
}

/// A `date-time` (or a `time`, which starts at phase 11) being read.
/// `phase` counts the characters of `YYYY-MM-DDTHH:MM:SS` read (19: all),
/// then 20 after the fraction's `.`, 21 in its digits, 22 after `Z`, 23
/// after the offset's sign, 24..=28 through the offset's `HH:MM`. Each
/// field holds its digits read so far as a number.
#[derive(Clone, Copy, Debug, Default)]
struct Dt {
    phase: u8,
    year: u16,
    month: u8,
    day: u8,
    hour: u8,
    minute: u8,
    second: u8,
    minus: bool,
    off_hour: u8,
}

impl Dt {
    fn unpack(h: Hand, at: u64) -> Dt {
        if at == 0 {
            return Dt {
                phase: if h == Hand::Time { 11 } else { 0 },
                ..Dt::default()
            };
        }
        let mut b = Bits::new(at);
        Dt {
            phase: b.take_u8(5),
            year: b.take(14) as u16,
            month: b.take_u8(4),
            day: b.take_u8(5),
            hour: b.take_u8(5),
            minute: b.take_u8(6),
            second: b.take_u8(7),
            minus: b.take(1) == 1,
            off_hour: b.take_u8(5),
        }
    }

    /// Never 0: a step leaves `phase` past 0 (and a `time` past 11).
    fn pack(self) -> u64 {
        let mut b = Bits::new(0);
        b.put(self.phase, 5);
        b.put(self.year, 14);
        b.put(self.month, 4);
        b.put(self.day, 5);
        b.put(self.hour, 5);
        b.put(self.minute, 6);
        b.put(self.second, 7);
        b.put(self.minus, 1);
        b.put(self.off_hour, 5);
        b.word
    }

    fn local(self) -> u16 {
        u16::from(self.hour) * 60 + u16::from(self.minute)
    }

    /// Whether `Z` may end the text: no leap second, or one at 23:59.
    fn z_ok(self, leap: bool) -> bool {
        !leap || self.local() == 23 * 60 + 59
    }

    /// The offset's digit at `phase` that makes a leap second 23:59 UTC
    /// (UTC = local - offset).
    fn leap_digit(self, phase: u8) -> u8 {
        let local = self.local();
        let off = if self.minus {
            23 * 60 + 59 - local
        } else {
            (local + 1) % (24 * 60)
        };
        let (h, m) = ((off / 60) as u8, (off % 60) as u8);
        match phase {
            23 => h / 10,
            24 => h % 10,
            26 => m / 10,
            _ => m % 10,
        }
    }

    fn step(mut self, c: u8) -> Option<Dt> {
        let d = digit(c);
        let mut next = self.phase + 1;
        match (self.phase, c) {
            (0..=3, _) => self.year = self.year * 10 + u16::from(d?),
            (4 | 7, b'-') | (10, b'T' | b't') | (13 | 16 | 25, b':') => {}
            (5, _) => self.month = d.filter(|&v| v <= 1)?,
            (6, _) => {
                let m = self.month * 10 + d?;
                (1..=12).contains(&m).then_some(())?;
                self.month = m;
            }
            (8, _) => {
                // 3 needs a month of 30 days or more.
                let v = d.filter(|&v| v < 3 || (v == 3 && self.dim() >= 30))?;
                self.day = v;
            }
            (9, _) => {
                let v = self.day * 10 + d?;
                (1..=self.dim()).contains(&v).then_some(())?;
                self.day = v;
            }
            (11, _) => self.hour = d.filter(|&v| v <= 2)?,
            (12, _) => self.hour = Some(self.hour * 10 + d?).filter(|&v| v <= 23)?,
            (14, _) => self.minute = d.filter(|&v| v <= 5)?,
            (15, _) => self.minute = self.minute * 10 + d?,
            (17, _) => self.second = d.filter(|&v| v <= 6)?,
            (18, _) => self.second = Some(self.second * 10 + d?).filter(|&v| v <= 60)?,
            (19, b'.') => next = 20,
            (19 | 21, b'Z' | b'z') => {
                self.z_ok(self.second == 60).then_some(())?;
                next = 22;
            }
            (19 | 21, b'+' | b'-') => {
                self.minus = c == b'-';
                next = 23;
            }
            (20 | 21, _) => {
                d?;
                next = 21;
            }
            (23 | 24 | 26 | 27, _) => {
                let v = d?;
                if self.second == 60 {
                    (v == self.leap_digit(self.phase)).then_some(())?;
                }
                match self.phase {
                    23 => self.off_hour = Some(v).filter(|&v| v <= 2)?,
                    24 => {
                        self.off_hour = Some(self.off_hour * 10 + v).filter(|&v| v <= 23)?;
                    }
                    26 => {
                        (v <= 5).then_some(())?;
                    }
                    _ => {}
                }
            }
            _ => return None,
        }
        self.phase = next;
        // Fields no later step reads are cleared, so that equal futures
        // are equal states (the mask cache is keyed by them): the date
        // once the day is read, the time once the seconds are, unless they
        // are a leap second.
        if next == 10 {
            (self.year, self.month, self.day) = (0, 0, 0);
        }
        if next > 19 && self.second != 60 {
            (self.hour, self.minute, self.second) = (0, 0, 0);
        }
        Some(self)
    }

    fn dim(self) -> u8 {
        // At most 31: the checker's own count.
        days_in_month(u32::from(self.year), u32::from(self.month)) as u8
    }

    fn lens(self) -> Lens {
        // After the seconds: `Z` (1), or an offset (6) when a leap second
        // away from 23:59 forbids `Z`; a fraction adds 2 or more.
        let end = |leap: bool| if self.z_ok(leap) { 1 } else { 6 };
        match self.phase {
            p @ 0..=17 => Lens::gapped(u64::from(19 - p) + 1),
            18 => Lens::gapped(1 + end(self.second == 6)),
            19 => Lens::gapped(end(self.second == 60)),
            20 => Lens::at_least(1 + end(self.second == 60)),
            21 => Lens::at_least(end(self.second == 60)),
            22 | 28 => Lens::exactly(0),
            p => Lens::exactly(u64::from(28 - p)),
        }
    }
}

fn is_unreserved(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"-._~".contains(&c)
}

fn is_sub_delim(c: u8) -> bool {
    b"!$&'()*+,;=".contains(&c)
}

fn pchar(c: u8) -> bool {
    is_unreserved(c) || is_sub_delim(c) || c == b':' || c == b'@'
}

fn scheme_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"+-.".contains(&c)
}

/// Where a URI is. `Hier`: after the scheme's `:`; `Slash`: after its
/// first `/`; `Auth`: after `//`; `Pre`: authority text before any `@`
/// (userinfo, or `host:port` if no `@` follows); `At`: after the `@`;
/// `Ip`: inside `[...]`; `Closed`: after its `]`; `First`: a relative
/// reference's first segment (a scheme if a `:` follows).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Part {
    #[default]
    Start,
    Scheme,
    Hier,
    Slash,
    Auth,
    Pre,
    At,
    Host,
    Port,
    Ip,
    Closed,
    Path,
    Query,
    Frag,
    First,
}

const PARTS: [Part; 15] = [
    Part::Start,
    Part::Scheme,
    Part::Hier,
    Part::Slash,
    Part::Auth,
    Part::Pre,
    Part::At,
    Part::Host,
    Part::Port,
    Part::Ip,
    Part::Closed,
    Part::Path,
    Part::Query,
    Part::Frag,
    Part::First,
];

/// A URI (or URI reference) being read.
#[derive(Clone, Copy, Debug, Default)]
struct Ur {
    part: Part,
    /// Hex digits a `%` still needs (0..=2).
    pct: u8,
    /// `Pre`: only digits since its one `:` (a port); `First`: a scheme
    /// so far.
    flag: bool,
    /// `Pre`: the `:` read (2: two or more).
    colons: u8,
    ip: Ip,
}

impl Ur {
    fn unpack(at: u64) -> Ur {
        let mut b = Bits::new(at);
        Ur {
            part: PARTS[(b.take(4) as usize).min(PARTS.len() - 1)],
            pct: b.take_u8(2),
            flag: b.take(1) == 1,
            colons: b.take_u8(2),
            ip: Ip::unpack(b.take(Ip::WIDTH)),
        }
    }

    /// Never 0 after a step: `Start` is only the state before the first
    /// character.
    fn pack(self) -> u64 {
        let mut b = Bits::new(0);
        b.put(self.part as u8, 4);
        b.put(self.pct, 2);
        b.put(self.flag, 1);
        b.put(self.colons, 2);
        b.put(self.ip.pack(), Ip::WIDTH);
        b.word
    }

    fn to(part: Part) -> Ur {
        Ur {
            part,
            ..Ur::default()
        }
    }

    /// `Pre` as a host and port: at most one `:`, digits after it.
    fn host_port(self) -> bool {
        self.colons == 0 || (self.colons == 1 && self.flag)
    }

    fn accepts(self, h: Hand) -> bool {
        self.pct == 0
            && match self.part {
                Part::Start => h == Hand::UriReference,
                Part::Scheme | Part::Ip => false,
                Part::Pre => self.host_port(),
                _ => true,
            }
    }

    fn lens(self, h: Hand) -> Lens {
        // From any accepted state one more character keeps it accepted
        // (`a` in a path or host, `0` in a port, `:` after `]`), so every
        // length past the shortest is a completion too.
        let pct = u64::from(self.pct);
        Lens::at_least(match self.part {
            Part::Start if h == Hand::Uri => 2,
            Part::Scheme => 1,
            Part::Ip => self.ip.dist() + 1,
            Part::Pre => pct + u64::from(!self.host_port()),
            _ => pct,
        })
    }

    /// `/`, `?` or `#` ending the authority or the path.
    fn leave(c: u8) -> Option<Ur> {
        match c {
            b'/' => Some(Ur::to(Part::Path)),
            b'?' => Some(Ur::to(Part::Query)),
            b'#' => Some(Ur::to(Part::Frag)),
            _ => None,
        }
    }

    fn pct_in(part: Part) -> Ur {
        Ur {
            pct: 2,
            ..Ur::to(part)
        }
    }

    fn step(mut self, h: Hand, c: u8) -> Option<Ur> {
        if self.pct > 0 {
            c.is_ascii_hexdigit().then_some(())?;
            self.pct -= 1;
            return Some(self);
        }
        match self.part {
            Part::Start if h == Hand::Uri => c.is_ascii_alphabetic().then(|| Ur::to(Part::Scheme)),
            Part::Start => match c {
                b':' => None,
                b'/' => Some(Ur::to(Part::Slash)),
                b'%' => Some(Ur::pct_in(Part::First)),
                _ if pchar(c) => Some(Ur {
                    flag: c.is_ascii_alphabetic(),
                    ..Ur::to(Part::First)
                }),
                _ => Ur::leave(c),
            },
            Part::Scheme => match c {
                b':' => Some(Ur::to(Part::Hier)),
                _ => scheme_char(c).then_some(self),
            },
            Part::First => match c {
                // A `:` before any `/` ends a scheme.
                b':' => self.flag.then(|| Ur::to(Part::Hier)),
                b'%' => Some(Ur::pct_in(Part::First)),
                _ if pchar(c) => {
                    self.flag &= scheme_char(c);
                    Some(self)
                }
                _ => Ur::leave(c),
            },
            Part::Hier | Part::Slash => match c {
                b'/' if self.part == Part::Hier => Some(Ur::to(Part::Slash)),
                b'/' => Some(Ur::to(Part::Auth)),
                b'%' => Some(Ur::pct_in(Part::Path)),
                _ if pchar(c) => Some(Ur::to(Part::Path)),
                _ => Ur::leave(c),
            },
            Part::Path | Part::Query | Part::Frag => match c {
                b'%' => {
                    self.pct = 2;
                    Some(self)
                }
                b'/' => Some(self),
                b'?' if self.part != Part::Path => Some(self),
                b'#' if self.part == Part::Frag => None,
                _ if pchar(c) => Some(self),
                _ => Ur::leave(c),
            },
            Part::Auth | Part::Pre => match c {
                b'[' if self.part == Part::Auth => Some(Ur::to(Part::Ip)),
                b'@' => Some(Ur::to(Part::At)),
                b':' => {
                    // Past two, neither userinfo nor a port reads it.
                    self.flag = self.colons == 0;
                    self.colons = (self.colons + 1).min(2);
                    self.part = Part::Pre;
                    Some(self)
                }
                b'%' => {
                    self.pct = 2;
                    self.flag = false;
                    self.part = Part::Pre;
                    Some(self)
                }
                _ if is_unreserved(c) || is_sub_delim(c) => {
                    self.flag &= c.is_ascii_digit();
                    self.part = Part::Pre;
                    Some(self)
                }
                _ => self.host_port().then(|| Ur::leave(c))?,
            },
            Part::At | Part::Host => match c {
                b'[' if self.part == Part::At => Some(Ur::to(Part::Ip)),
                b':' => Some(Ur::to(Part::Port)),
                b'%' => Some(Ur::pct_in(Part::Host)),
                _ if is_unreserved(c) || is_sub_delim(c) => Some(Ur::to(Part::Host)),
                _ => Ur::leave(c),
            },
            Part::Port => match c {
                _ if c.is_ascii_digit() => Some(self),
                _ => Ur::leave(c),
            },
            Part::Closed => match c {
                b':' => Some(Ur::to(Part::Port)),
                _ => Ur::leave(c),
            },
            Part::Ip => match self.ip.step(c)? {
                IpStep::In(ip) => Some(Ur { ip, ..self }),
                IpStep::Closed => Some(Ur::to(Part::Closed)),
            },
        }
    }
}

enum IpStep {
    In(Ip),
    Closed,
}

/// The inside of `[...]`: IPvFuture (`fut` 1: after `v`, 2: in its hex
/// digits, 3: after its `.`, 4: in its tail), or IPv6 (`fut` 0) as the
/// checker's `ipv6` reads it: the 16-bit pieces done (`count`, both sides
/// of `::`), whether `::` was read, the hex digits of the piece being
/// read (`cur`) and whether it is a decimal octet (`oct_ok`, its value in
/// `oct`), the `:` just read (2 after `::`), and in an IPv4 tail the dots
/// read (`v4`) with `cur` / `oct` for the octet being read.
#[derive(Clone, Copy, Debug, Default)]
struct Ip {
    fut: u8,
    count: u8,
    comp: bool,
    cur: u8,
    oct_ok: bool,
    colons: u8,
    v4: u8,
    oct: u8,
}

impl Ip {
    const WIDTH: u32 = 24;

    fn unpack(w: u64) -> Ip {
        let mut b = Bits::new(w);
        Ip {
            fut: b.take_u8(3),
            count: b.take_u8(4),
            comp: b.take(1) == 1,
            cur: b.take_u8(3),
            oct_ok: b.take(1) == 1,
            colons: b.take_u8(2),
            v4: b.take_u8(2),
            oct: b.take_u8(8),
        }
    }

    fn pack(self) -> u64 {
        let mut b = Bits::new(0);
        b.put(self.fut, 3);
        b.put(self.count, 4);
        b.put(self.comp, 1);
        b.put(self.cur, 3);
        b.put(self.oct_ok, 1);
        b.put(self.colons, 2);
        b.put(self.v4, 2);
        b.put(self.oct, 8);
        b.word
    }

    /// The fewest characters to a text that `]` may close.
    fn dist(self) -> u64 {
        match self.fut {
            0 => {}
            f => return u64::from(4 - f),
        }
        if self.v4 > 0 {
            return u64::from(self.cur == 0) + 2 * u64::from(3 - self.v4);
        }
        match (self.colons, self.cur) {
            (2, _) => 0,
            (1, _) => 1,
            (_, 0) => 2,
            _ if self.comp || self.count == 7 => 0,
            _ => 2,
        }
    }

    fn step(mut self, c: u8) -> Option<IpStep> {
        let tail = |c: u8| is_unreserved(c) || is_sub_delim(c) || c == b':';
        match (self.fut, c) {
            // Only as the first character.
            (0, b'v' | b'V') if self.pack() == 0 => {
                self.fut = 1;
                return Some(IpStep::In(self));
            }
            (0, _) => return self.step_v6(c),
            (1 | 2, _) if c.is_ascii_hexdigit() => self.fut = 2,
            (2, b'.') => self.fut = 3,
            (3 | 4, _) if tail(c) => self.fut = 4,
            (4, b']') => return Some(IpStep::Closed),
            _ => return None,
        }
        Some(IpStep::In(self))
    }

    fn step_v6(mut self, c: u8) -> Option<IpStep> {
        if self.v4 > 0 {
            match c {
                b'0'..=b'9' => {
                    // At most three digits, no leading zero, up to 255.
                    let v = u16::from(self.oct) * 10 + u16::from(c - b'0');
                    let ok = self.cur < 3 && !(self.cur == 1 && self.oct == 0) && v <= 255;
                    ok.then_some(())?;
                    self.oct = v as u8;
                    self.cur += 1;
                }
                b'.' if self.cur > 0 && self.v4 < 3 => {
                    self.v4 += 1;
                    self.cur = 0;
                    self.oct = 0;
                }
                b']' if self.cur > 0 && self.v4 == 3 => return Some(IpStep::Closed),
                _ => return None,
            }
            return Some(IpStep::In(self));
        }
        let limit = if self.comp { 7 } else { 8 };
        match c {
            _ if c.is_ascii_hexdigit() => {
                if self.cur == 4 || (self.colons == 1 && self.count == 0) {
                    // A fifth digit, or one after a leading single `:`.
                    return None;
                }
                if self.cur == 0 && self.count + 1 > limit {
                    return None;
                }
                let v = u16::from(self.oct) * 10 + u16::from(c.wrapping_sub(b'0'));
                self.oct_ok = c.is_ascii_digit()
                    && (self.cur == 0
                        || (self.oct_ok && self.cur < 3 && self.oct != 0 && v <= 255));
                self.oct = if self.oct_ok { v as u8 } else { 0 };
                self.cur += 1;
                self.colons = 0;
            }
            b':' if self.cur > 0 => {
                // Another piece must follow (or, before `::`, `:` itself).
                self.count += 1;
                if self.count + 1 > limit {
                    return None;
                }
                self.cur = 0;
                self.oct = 0;
                self.oct_ok = false;
                self.colons = 1;
            }
            b':' => match self.colons {
                // A leading `:`, only ever the start of `::`.
                0 => self.colons = 1,
                1 if !self.comp => {
                    self.comp = true;
                    self.colons = 2;
                }
                _ => return None,
            },
            b'.' => {
                // An IPv4 tail: the last two pieces of eight, or of seven
                // at most after `::`.
                let fits = if self.comp {
                    self.count + 2 <= 7
                } else {
                    self.count + 2 == 8
                };
                (self.cur > 0 && self.oct_ok && fits).then_some(())?;
                self.v4 = 1;
                self.cur = 0;
                self.oct = 0;
            }
            b']' => {
                let ok = match (self.colons, self.cur) {
                    (2, _) => true,
                    (1, _) | (_, 0) => false,
                    _ => self.comp || self.count == 7,
                };
                return ok.then_some(IpStep::Closed);
            }
            _ => return None,
        }
        Some(IpStep::In(self))
    }
}

mod net;
#[cfg(test)]
mod tests;
