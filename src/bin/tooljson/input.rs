//! Input read as it arrives: FILE or stdin, one blocking read at a time, each
//! read handed on before the next one is waited for. Nothing is buffered
//! whole, so a pipe is processed live and memory does not grow with the input.

use std::io::{ErrorKind, Read};
use std::path::PathBuf;

use crate::Failure;

/// How much one read asks for. Larger reads change nothing for a pipe (a read
/// returns what is there) and cost only this buffer for a file.
const READ_SIZE: usize = 64 << 10;

/// An opened input: a file, or stdin for `None` and `-`.
pub struct Input {
    reader: Box<dyn Read>,
    name: String,
    is_stdin: bool,
}

impl Input {
    /// Opens FILE (or stdin when `path` is `None` or `-`).
    pub fn open(path: Option<&PathBuf>) -> Result<Input, Failure> {
        match path {
            Some(p) if p.as_os_str() != "-" => {
                let name = p.display().to_string();
                let file = std::fs::File::open(p)
                    .map_err(|e| Failure::io(&format!("reading {name}"), e))?;
                Ok(Input {
                    reader: Box::new(file),
                    name,
                    is_stdin: false,
                })
            }
            _ => Ok(Input {
                reader: Box::new(std::io::stdin().lock()),
                name: "stdin".to_owned(),
                is_stdin: true,
            }),
        }
    }

    /// Bytes built into the program (the demo), read like a file.
    pub fn bytes(name: &str, bytes: &'static [u8]) -> Input {
        Input {
            reader: Box::new(bytes),
            name: name.to_owned(),
            is_stdin: false,
        }
    }

    /// Whether this is standard input (live data, not a recording).
    pub fn is_stdin(&self) -> bool {
        self.is_stdin
    }

    /// Calls `each` with the input's pieces as they arrive, until the end of
    /// the input or until `each` returns `Ok(false)`. Without `chunk`, each
    /// read is one piece. With `chunk`, the pieces are that many bytes,
    /// carried across reads, except that a short read (a pipe with nothing
    /// more for now) hands on what it has at once rather than wait: a file
    /// is cut the same way every time, a live stream is never held back.
    /// Returns the bytes read.
    pub fn for_each_piece(
        self,
        chunk: Option<usize>,
        each: impl FnMut(&[u8]) -> Result<bool, Failure>,
    ) -> Result<u64, Failure> {
        self.pieces(READ_SIZE, chunk, each)
    }

    fn pieces(
        mut self,
        read_size: usize,
        chunk: Option<usize>,
        mut each: impl FnMut(&[u8]) -> Result<bool, Failure>,
    ) -> Result<u64, Failure> {
        let mut buf = vec![0u8; read_size];
        // The start of a chunk whose end has not arrived yet.
        let mut carry: Vec<u8> = Vec::new();
        let mut total = 0u64;
        loop {
            let n = match self.reader.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(Failure::io(&format!("reading {}", self.name), e)),
            };
            total += n as u64;
            let mut data = &buf[..n];
            let Some(size) = chunk else {
                if !each(data)? {
                    return Ok(total);
                }
                continue;
            };
            if !carry.is_empty() {
                let take = (size - carry.len()).min(data.len());
                carry.extend_from_slice(&data[..take]);
                data = &data[take..];
                if carry.len() == size {
                    if !each(&carry)? {
                        return Ok(total);
                    }
                    carry.clear();
                }
            }
            let mut pieces = data.chunks_exact(size);
            for piece in pieces.by_ref() {
                if !each(piece)? {
                    return Ok(total);
                }
            }
            carry.extend_from_slice(pieces.remainder());
            if n < read_size && !carry.is_empty() {
                if !each(&carry)? {
                    return Ok(total);
                }
                carry.clear();
            }
        }
        if !carry.is_empty() {
            each(&carry)?;
        }
        Ok(total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hands out one scripted read per call (at most the buffer), as a pipe
    /// does.
    struct Reads(Vec<Vec<u8>>);

    impl Read for Reads {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let Some(r) = self.0.first_mut() else {
                return Ok(0);
            };
            let n = r.len().min(buf.len());
            buf[..n].copy_from_slice(&r[..n]);
            r.drain(..n);
            if r.is_empty() {
                self.0.remove(0);
            }
            Ok(n)
        }
    }

    fn pieces(reads: &[&[u8]], read_size: usize, chunk: Option<usize>) -> Vec<Vec<u8>> {
        let input = Input {
            reader: Box::new(Reads(reads.iter().map(|r| r.to_vec()).collect())),
            name: "test".to_owned(),
            is_stdin: false,
        };
        let mut got = Vec::new();
        let total = input
            .pieces(read_size, chunk, |p| {
                got.push(p.to_vec());
                Ok(true)
            })
            .ok()
            .unwrap();
        assert_eq!(total as usize, reads.iter().map(|r| r.len()).sum::<usize>());
        got
    }

    #[test]
    fn reads_are_pieces_without_a_chunk_size() {
        assert_eq!(
            pieces(&[b"ab", b"c"], 64, None),
            [b"ab".to_vec(), b"c".to_vec()]
        );
    }

    #[test]
    fn chunks_are_exact_across_full_reads() {
        // Reads of 4 bytes (full), chunks of 3.
        let got = pieces(&[b"abcdefghijklm"], 4, Some(3));
        assert_eq!(got, [&b"abc"[..], b"def", b"ghi", b"jkl", b"m"]);
    }

    #[test]
    fn a_short_read_is_not_held_back() {
        let got = pieces(&[b"abcde", b"f", b"ghijklm"], 64, Some(3));
        assert_eq!(got, [&b"abc"[..], b"de", b"f", b"ghi", b"jkl", b"m"]);
    }
}
