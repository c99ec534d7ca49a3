//! The network formats as hand-built automata: `ipv6` (the URI's IPv6
//! literal without its brackets), RFC 1123 `hostname` and RFC 5321
//! `email` (`Mailbox`: a dot-atom or quoted local part of at most 64
//! octets, `@`, then a host name or an address literal).
//!
//! Advice for hackers: the checker reads a label with `--` in its third
//! and fourth characters as an IDNA A-label (`xn--` and Punycode that
//! must decode to a valid U-label). Whether a prefix of Punycode can
//! still become a valid U-label is not a question an automaton answers,
//! so the output policy leaves such labels out: a host name is written
//! in LDH labels without `--` there (`xn--` is refused at its fourth
//! character). Every other host name the checker accepts is taken.
//!
//! Lengths: a host name is at most 253 octets in labels of at most 63;
//! its completion lengths are a closed form ([`Lens`] with a bound). The
//! bracketed parts are short (an IPv6 text is at most 45 characters), so
//! their completion lengths are found once per state by a search over
//! one character of each kind, and kept.

use std::cell::RefCell;
use std::collections::HashMap;

use super::{Bits, Hand, Ip, IpStep, Lens};

/// A host name's most octets, and a label's.
const HOST_MAX: u8 = 253;
const LABEL_MAX: u8 = 63;
/// A local part's most octets.
const LOCAL_MAX: u8 = 64;

/// `atext` (RFC 5322 3.2.3), as the checker reads a dot-atom.
fn atext(c: u8) -> bool {
    c.is_ascii_alphanumeric() || b"!#$%&'*+-/=?^_`{|}~".contains(&c)
}

/// A host name being read: octets so far (`total`), the current label's
/// (`label`), its last character (0: none, a label starts; 1: a letter
/// or digit; 2: `-`), and whether the label's third character is `-`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Host {
    total: u8,
    label: u8,
    last: u8,
    third_dash: bool,
    /// Counts nothing (room without end): only ever a state that stands
    /// for others (see [`Host::canon`]), where a run of letters leaves the
    /// state as it is.
    free: bool,
}

impl Host {
    pub(super) const WIDTH: u32 = 18;

    pub(super) fn unpack(w: u64) -> Host {
        let mut b = Bits::new(w);
        Host {
            total: b.take_u8(8),
            label: b.take_u8(6),
            last: b.take_u8(2),
            third_dash: b.take(1) == 1,
            free: b.take(1) == 1,
        }
    }

    /// Never 0 after a step: `total` counts the character.
    pub(super) fn pack(self) -> u64 {
        let mut b = Bits::new(0);
        b.put(self.total, 8);
        b.put(self.label, 6);
        b.put(self.last, 2);
        b.put(self.third_dash, 1);
        b.put(self.free, 1);
        b.word
    }

    pub(super) fn accepts(self) -> bool {
        self.last == 1
    }

    /// The state with the most room that steps as this one does for as
    /// long as neither runs out: no octet counted, and a label past the
    /// characters the `--` rule looks at shortened to them; and the
    /// characters this one may still take before a count binds.
    pub(super) fn canon(mut self) -> (Host, u64) {
        let mut room = u64::from(HOST_MAX - self.total);
        self.total = 0;
        self.free = true;
        if self.label >= 4 {
            room = room.min(u64::from(LABEL_MAX - self.label));
            self.label = 4;
            self.third_dash = false;
        }
        (self, room)
    }

    pub(super) fn step(mut self, c: u8) -> Option<Host> {
        // Room for this character and, unless it may end the name, one
        // more after it.
        let room = if self.free {
            HOST_MAX
        } else {
            HOST_MAX - self.total
        };
        let label_room = if self.free && self.label >= 4 {
            LABEL_MAX
        } else {
            LABEL_MAX - self.label
        };
        match c {
            _ if c.is_ascii_alphanumeric() => {
                (label_room >= 1 && room >= 1).then_some(())?;
                self.last = 1;
            }
            b'-' => {
                let ok = self.last != 0
                    && label_room >= 2
                    && room >= 2
                    // The output policy: no A-label (see the module docs).
                    && !(self.label == 3 && self.third_dash);
                ok.then_some(())?;
                self.third_dash |= self.label == 2;
                self.last = 2;
            }
            b'.' => {
                (self.last == 1 && room >= 2).then_some(())?;
                self.total += u8::from(!self.free);
                self.label = 0;
                self.last = 0;
                self.third_dash = false;
                return Some(self);
            }
            _ => return None,
        }
        if !self.free {
            self.total += 1;
        }
        // Free, a label past the `--` rule's characters counts no more.
        if !(self.free && self.label >= 4) {
            self.label += 1;
        }
        Some(self)
    }

    /// The completion lengths: any up to the room left, but one more
    /// character is only a letter or digit of the current label, which a
    /// full label has no room for.
    pub(super) fn lens(self) -> Lens {
        let room = u64::from(HOST_MAX - self.total);
        let label_room = LABEL_MAX - self.label;
        match self.last {
            0 => Lens::run(1, room, false),
            1 => Lens::run(0, room, label_room == 0),
            _ => Lens::run(1, room, label_room == 1),
        }
    }
}

/// Where an email address is: `phase` 1: a dot-atom local part (`last`
/// 1 after `atext`, 2 after `.`); 2: a quoted one (`last` 1 inside, 2
/// after `\`, 3 after the closing quote); 3: the host name; 4: `[` and
/// `IPv6:` being read (`last` characters of the tag); 5: an IPv4
/// literal; 6: an IPv6 literal; 7: after `]`. `local` counts the local
/// part's octets, quotes included.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Mail {
    phase: u8,
    last: u8,
    local: u8,
    /// The local part counts nothing (see [`Host::free`]).
    free: bool,
    /// The host name, the IPv6 literal, or the IPv4 literal's `(dots, digits, value)`.
    sub: u64,
}

/// The address literal's tag, read without regard to case.
const TAG: &[u8] = b"ipv6:";

impl Mail {
    fn unpack(w: u64) -> Mail {
        let mut b = Bits::new(w);
        Mail {
            phase: b.take_u8(3),
            last: b.take_u8(3),
            local: b.take_u8(7),
            sub: b.take(Ip::WIDTH.max(Host::WIDTH)),
            free: b.take(1) == 1,
        }
    }

    fn pack(self) -> u64 {
        let mut b = Bits::new(0);
        b.put(self.phase, 3);
        b.put(self.last, 3);
        b.put(self.local, 7);
        b.put(self.sub, Ip::WIDTH.max(Host::WIDTH));
        b.put(self.free, 1);
        b.word
    }

    fn to(phase: u8, sub: u64) -> Mail {
        Mail {
            phase,
            sub,
            ..Mail::default()
        }
    }

    fn accepts(self) -> bool {
        match self.phase {
            3 => Host::unpack(self.sub).accepts(),
            7 => true,
            _ => false,
        }
    }

    fn step(mut self, c: u8) -> Option<Mail> {
        let room = if self.free {
            LOCAL_MAX
        } else {
            LOCAL_MAX - self.local
        };
        match (self.phase, self.last) {
            (0, _) => match c {
                b'"' => Some(Mail {
                    phase: 2,
                    last: 1,
                    local: 1,
                    sub: 0,
                    free: false,
                }),
                _ if atext(c) => Some(Mail {
                    phase: 1,
                    last: 1,
                    local: 1,
                    sub: 0,
                    free: false,
                }),
                _ => None,
            },
            (1, last) => match c {
                b'@' if last == 1 => Some(Mail::to(3, 0)),
                // A dot needs an `atext` after it.
                b'.' if last == 1 && room >= 2 => {
                    self.local += u8::from(!self.free);
                    self.last = 2;
                    Some(self)
                }
                _ if atext(c) && room >= 1 => {
                    self.local += u8::from(!self.free);
                    self.last = 1;
                    Some(self)
                }
                _ => None,
            },
            (2, 1) => match c {
                b'"' => {
                    self.local += u8::from(!self.free);
                    self.last = 3;
                    Some(self)
                }
                // A quoted pair, then the closing quote.
                b'\\' if room >= 3 => {
                    self.local += u8::from(!self.free);
                    self.last = 2;
                    Some(self)
                }
                b' ' | b'\t' | 0x21..=0x7e if c != b'\\' && room >= 2 => {
                    self.local += u8::from(!self.free);
                    Some(self)
                }
                _ => None,
            },
            (2, 2) => match c {
                b' '..=b'~' | b'\t' => {
                    self.local += u8::from(!self.free);
                    self.last = 1;
                    Some(self)
                }
                _ => None,
            },
            (2, _) => (c == b'@').then(|| Mail::to(3, 0)),
            (3, _) => {
                let host = Host::unpack(self.sub);
                if c == b'[' && host == Host::default() {
                    return Some(Mail::to(4, 0));
                }
                host.step(c).map(|h| Mail::to(3, h.pack()))
            }
            (4, n) => {
                if n == 0 && c.is_ascii_digit() {
                    return V4::default().step(c).map(|v| Mail::to(5, v.pack()));
                }
                (TAG.get(usize::from(n)) == Some(&c.to_ascii_lowercase())).then_some(())?;
                if usize::from(n) + 1 == TAG.len() {
                    Some(Mail::to(6, 0))
                } else {
                    self.last += 1;
                    Some(self)
                }
            }
            (5, _) => {
                let v = V4::unpack(self.sub);
                if c == b']' {
                    return v.accepts().then(|| Mail::to(7, 0));
                }
                v.step(c).map(|v| Mail::to(5, v.pack()))
            }
            (6, _) => match Ip::unpack(self.sub).step_v6(c)? {
                IpStep::In(ip) => Some(Mail::to(6, ip.pack())),
                IpStep::Closed => Some(Mail::to(7, 0)),
            },
            _ => None,
        }
    }

    fn lens(self) -> Lens {
        let room = u64::from(LOCAL_MAX - self.local);
        // `@` and a host name of 1 to 253 octets (an address literal is
        // shorter than the longest name).
        let domain =
            |min: u64, room: u64| Lens::run(min + 2, room + 1 + u64::from(HOST_MAX), false);
        match (self.phase, self.last) {
            (0, _) => domain(1, room),
            (1, 1) => domain(0, room),
            (1, _) => domain(1, room),
            // The closing quote, and a quoted pair's second character.
            (2, 1) => domain(1, room),
            (2, 2) => domain(2, room),
            (2, _) => domain(0, 0),
            (3, _) => Host::unpack(self.sub).lens(),
            (7, _) => Lens::exactly(0),
            _ => Lens::set(search(Hand::Email, self.pack())),
        }
    }
}

/// An IPv4 text being read: the dots so far, the current octet's digits
/// and value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct V4 {
    dots: u8,
    digits: u8,
    value: u8,
}

impl V4 {
    fn unpack(w: u64) -> V4 {
        let mut b = Bits::new(w);
        V4 {
            dots: b.take_u8(2),
            digits: b.take_u8(2),
            value: b.take_u8(8),
        }
    }

    fn pack(self) -> u64 {
        let mut b = Bits::new(0);
        b.put(self.dots, 2);
        b.put(self.digits, 2);
        b.put(self.value, 8);
        b.word
    }

    fn accepts(self) -> bool {
        self.dots == 3 && self.digits > 0
    }

    fn step(mut self, c: u8) -> Option<V4> {
        match c {
            b'0'..=b'9' => {
                // At most three digits, no leading zero, up to 255.
                let v = u16::from(self.value) * 10 + u16::from(c - b'0');
                let ok = self.digits < 3 && !(self.digits == 1 && self.value == 0) && v <= 255;
                ok.then_some(())?;
                self.value = v as u8;
                self.digits += 1;
            }
            b'.' if self.digits > 0 && self.dots < 3 => {
                self.dots += 1;
                self.digits = 0;
                self.value = 0;
            }
            _ => return None,
        }
        Some(self)
    }
}

/// An IPv6 text (the URI's literal without brackets).
pub(super) fn ipv6_step(at: u64, c: u8) -> Option<u64> {
    match Ip::unpack(at).step_v6(c)? {
        IpStep::In(ip) => Some(ip.pack()),
        IpStep::Closed => None,
    }
}

pub(super) fn ipv6_accepts(at: u64) -> bool {
    // As if `]` came next.
    matches!(Ip::unpack(at).step_v6(b']'), Some(IpStep::Closed))
}

pub(super) fn ipv6_lens(at: u64) -> Lens {
    Lens::set(search(Hand::Ipv6, at))
}

pub(super) fn email_step(at: u64, c: u8) -> Option<u64> {
    Mail::unpack(at).step(c).map(Mail::pack)
}

pub(super) fn email_accepts(at: u64) -> bool {
    Mail::unpack(at).accepts()
}

pub(super) fn host_canon(at: u64) -> (u64, u64) {
    let (h, room) = Host::unpack(at).canon();
    (h.pack(), room)
}

/// See [`Host::canon`]: the local part's octets counted as one.
pub(super) fn email_canon(at: u64) -> (u64, u64) {
    let mut m = Mail::unpack(at);
    match m.phase {
        1 | 2 => {
            let room = u64::from(LOCAL_MAX - m.local);
            m.local = 1;
            m.free = true;
            (m.pack(), room)
        }
        // Not at the domain's start, where `[` may still come.
        3 if m.sub != 0 => {
            let (h, room) = Host::unpack(m.sub).canon();
            m.sub = h.pack();
            (m.pack(), room)
        }
        _ => (at, u64::MAX),
    }
}

pub(super) fn email_lens(at: u64) -> Lens {
    Mail::unpack(at).lens()
}

/// One character of each kind the short parts tell apart: each digit
/// (IPv4 octets weigh them), a hex letter, the tag's letters, and the
/// punctuation.
const KINDS: &[u8] = b"0123456789aipv:.]";

thread_local! {
    /// Completion lengths found by [`search`], by format and state.
    static FOUND: RefCell<HashMap<(Hand, u64), u64>> = RefCell::new(HashMap::new());
}

/// The completion lengths from state `at` of a part with no loop (every
/// character moves it on, so the search ends), as bits: `l` is one iff
/// `at` accepts and `l` is 0, or `l - 1` is one from a state a character
/// leads to.
fn search(h: Hand, at: u64) -> u64 {
    if let Some(v) = FOUND.with(|m| m.borrow().get(&(h, at)).copied()) {
        return v;
    }
    let mut v = u64::from(h.accepts(at));
    let mut seen: Vec<u64> = Vec::new();
    for &c in KINDS {
        if let Some(n) = h.step(at, char::from(c))
            && !seen.contains(&n)
        {
            seen.push(n);
            v |= search(h, n) << 1;
        }
    }
    FOUND.with(|m| m.borrow_mut().insert((h, at), v));
    v
}
