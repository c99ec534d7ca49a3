//! Just enough RFC 3986 to resolve `$id` and `$ref` against a base URI:
//! split into parts, resolve a reference (section 5.2), drop dot segments.
//! No normalisation beyond that, no network.

/// The parts of a URI reference, as slices of the text.
struct Parts<'a> {
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    path: &'a str,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

fn split(uri: &str) -> Parts<'_> {
    let (rest, fragment) = match uri.find('#') {
        Some(i) => (&uri[..i], Some(&uri[i + 1..])),
        None => (uri, None),
    };
    let (rest, query) = match rest.find('?') {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    let scheme_end = rest.find(':').filter(|&i| {
        i > 0
            && rest[..i].bytes().enumerate().all(|(k, b)| {
                b.is_ascii_alphabetic() || (k > 0 && (b.is_ascii_digit() || b"+-.".contains(&b)))
            })
    });
    let (scheme, rest) = match scheme_end {
        Some(i) => (Some(&rest[..i]), &rest[i + 1..]),
        None => (None, rest),
    };
    let (authority, path) = match rest.strip_prefix("//") {
        Some(r) => match r.find('/') {
            Some(i) => (Some(&r[..i]), &r[i..]),
            None => (Some(r), ""),
        },
        None => (None, rest),
    };
    Parts {
        scheme,
        authority,
        path,
        query,
        fragment,
    }
}

fn remove_dot_segments(path: &str) -> String {
    let mut out: Vec<&str> = Vec::new();
    let absolute = path.starts_with('/');
    let segs: Vec<&str> = path.split('/').collect();
    let last = segs.len().saturating_sub(1);
    let mut trailing_slash = false;
    for (i, s) in segs.iter().enumerate() {
        if absolute && i == 0 {
            continue;
        }
        match *s {
            "." => trailing_slash = i == last,
            ".." => {
                out.pop();
                trailing_slash = i == last;
            }
            s => {
                out.push(s);
                trailing_slash = false;
            }
        }
    }
    let mut r = String::with_capacity(path.len());
    if absolute {
        r.push('/');
    }
    r.push_str(&out.join("/"));
    if trailing_slash && !r.ends_with('/') {
        r.push('/');
    }
    r
}

fn merge(base: &Parts<'_>, rel: &str) -> String {
    if base.authority.is_some() && base.path.is_empty() {
        return format!("/{rel}");
    }
    match base.path.rfind('/') {
        Some(i) => format!("{}{}", &base.path[..=i], rel),
        None => rel.to_owned(),
    }
}

fn compose(p: &Parts<'_>, path: &str) -> String {
    let mut out = String::new();
    if let Some(s) = p.scheme {
        out.push_str(s);
        out.push(':');
    }
    if let Some(a) = p.authority {
        out.push_str("//");
        out.push_str(a);
    }
    out.push_str(path);
    if let Some(q) = p.query {
        out.push('?');
        out.push_str(q);
    }
    if let Some(f) = p.fragment {
        out.push('#');
        out.push_str(f);
    }
    out
}

/// Resolves `reference` against the absolute URI `base` (RFC 3986 §5.2.2).
pub(crate) fn resolve(base: &str, reference: &str) -> String {
    let r = split(reference);
    let b = split(base);
    if r.scheme.is_some() {
        let path = remove_dot_segments(r.path);
        return compose(&r, &path);
    }
    let (authority, path, query) = if r.authority.is_some() {
        (r.authority, remove_dot_segments(r.path), r.query)
    } else if r.path.is_empty() {
        (b.authority, b.path.to_owned(), r.query.or(b.query))
    } else if r.path.starts_with('/') {
        (b.authority, remove_dot_segments(r.path), r.query)
    } else {
        (
            b.authority,
            remove_dot_segments(&merge(&b, r.path)),
            r.query,
        )
    };
    compose(
        &Parts {
            scheme: b.scheme,
            authority,
            path: &path,
            query,
            fragment: r.fragment,
        },
        &path,
    )
}

/// Splits off the fragment: `("http://x/y", "/a")` for `http://x/y#/a`.
pub(crate) fn split_fragment(uri: &str) -> (&str, &str) {
    match uri.find('#') {
        Some(i) => (&uri[..i], &uri[i + 1..]),
        None => (uri, ""),
    }
}

/// Decodes `%XX` escapes (of a fragment); invalid escapes stay as written.
pub(crate) fn percent_decode(s: &str) -> String {
    if !s.contains('%') {
        return s.to_owned();
    }
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && let (Some(h), Some(l)) = (
                b.get(i + 1).and_then(|c| (*c as char).to_digit(16)),
                b.get(i + 2).and_then(|c| (*c as char).to_digit(16)),
            )
        {
            out.push((h * 16 + l) as u8);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::resolve;

    #[test]
    fn rfc3986_examples() {
        let base = "http://a/b/c/d;p?q";
        for (r, want) in [
            ("g", "http://a/b/c/g"),
            ("./g", "http://a/b/c/g"),
            ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"),
            ("//g", "http://g"),
            ("?y", "http://a/b/c/d;p?y"),
            ("#s", "http://a/b/c/d;p?q#s"),
            ("", "http://a/b/c/d;p?q"),
            ("..", "http://a/b/"),
            ("../g", "http://a/b/g"),
            ("../../g", "http://a/g"),
            ("../../../g", "http://a/g"),
        ] {
            assert_eq!(resolve(base, r), want, "{r}");
        }
        assert_eq!(resolve("urn:uuid:x", "#/a"), "urn:uuid:x#/a");
        assert_eq!(
            resolve("http://localhost:1234/draft2020-12/tree", "node"),
            "http://localhost:1234/draft2020-12/node"
        );
    }
}
