//! Bedrock Converse user, system and tool-result blocks: `{"text"}`,
//! `{"image": {"format", "source": {"bytes"}}}`, `{"document": {"format",
//! "name", "source": {"bytes"} | {"text"}}}`; an S3 source, `cachePoint`,
//! `guardContent`, video and any other block are kept verbatim for Bedrock
//! only. In JSON, `bytes` is base64 text (as the AWS SDKs send it).

use crate::value::Value;

use super::{Media, MediaSource, Place, obj};
use crate::protocol::ResultPart;
use crate::protocol::loss::{LossEffect, Losses};

/// Bedrock document formats and their MIME types.
const DOCUMENT_FORMATS: [(&str, &str); 9] = [
    ("pdf", "application/pdf"),
    ("csv", "text/csv"),
    ("doc", "application/msword"),
    (
        "docx",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ),
    ("xls", "application/vnd.ms-excel"),
    (
        "xlsx",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ),
    ("html", "text/html"),
    ("txt", "text/plain"),
    ("md", "text/markdown"),
];

/// Bedrock image formats (`image/<format>`).
const IMAGE_FORMATS: [&str; 4] = ["png", "jpeg", "gif", "webp"];

/// One Bedrock block as a content part (`None`: not one this layer models).
pub(crate) fn read_part(p: &Value) -> Option<ResultPart> {
    let o = p.as_object()?;
    if o.len() != 1 {
        return None;
    }
    if let Some(Value::String(t)) = o.get("text") {
        return Some(ResultPart::Text(t.clone()));
    }
    if let Some(img) = o.get("image").and_then(Value::as_object) {
        let format = img.get("format")?.as_str()?;
        let src = img.get("source")?.as_object()?;
        if img.len() != 2 || src.len() != 1 || !IMAGE_FORMATS.contains(&format) {
            return None;
        }
        return Some(ResultPart::Image(Media::new(MediaSource::Base64 {
            media_type: format!("image/{format}"),
            data: src.get("bytes")?.as_str()?.to_owned(),
        })));
    }
    let doc = o.get("document")?.as_object()?;
    if doc.len() != 3 {
        return None;
    }
    let format = doc.get("format")?.as_str()?;
    let name = doc.get("name")?.as_str()?;
    let src = doc.get("source")?.as_object()?;
    if src.len() != 1 {
        return None;
    }
    let source = match (src.get("bytes"), src.get("text")) {
        (Some(Value::String(b)), None) => MediaSource::Base64 {
            media_type: DOCUMENT_FORMATS
                .iter()
                .find(|(f, _)| *f == format)?
                .1
                .to_owned(),
            data: b.clone(),
        },
        (None, Some(Value::String(t))) if format == "txt" => MediaSource::Text {
            media_type: "text/plain".into(),
            data: t.clone(),
        },
        _ => return None,
    };
    Some(ResultPart::Document(Media {
        source,
        detail: None,
        filename: Some(name.to_owned()),
    }))
}

/// A document name as Bedrock takes it: letters, digits, single spaces,
/// `-`, `(`, `)`, `[`, `]`; anything else becomes `-`.
fn document_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        let ok = c.is_ascii_alphanumeric() || matches!(c, '-' | '(' | ')' | '[' | ']');
        if ok {
            out.push(c);
        } else if c == ' ' && !out.ends_with(' ') {
            out.push(' ');
        } else {
            out.push('-');
        }
    }
    let trimmed = out.trim().to_owned();
    if trimmed.is_empty() {
        "document".into()
    } else {
        trimmed
    }
}

/// Writes an image or document block for Bedrock, or records why not.
pub(crate) fn write_media(
    m: &Media,
    image: bool,
    place: Place,
    at: &str,
    losses: &mut Losses,
) -> Option<Value> {
    let kind = if image { "image" } else { "document" };
    let drop = |losses: &mut Losses, why: &str| {
        losses.push(at, kind, LossEffect::Dropped, why);
        None
    };
    if place == Place::System {
        return drop(losses, "Bedrock system blocks take text only");
    }
    if m.detail.is_some() {
        losses.push(
            &format!("{at}/detail"),
            "detail",
            LossEffect::Dropped,
            "Bedrock images have no detail setting",
        );
    }
    if image {
        if m.filename.is_some() {
            losses.push(
                &format!("{at}/filename"),
                "filename",
                LossEffect::Dropped,
                "Bedrock images have no file name",
            );
        }
        return match &m.source {
            MediaSource::Base64 { media_type, data } => {
                match media_type
                    .strip_prefix("image/")
                    .filter(|f| IMAGE_FORMATS.contains(f))
                {
                    Some(f) => Some(obj(vec![(
                        "image",
                        obj(vec![
                            ("format", Value::from(f)),
                            ("source", obj(vec![("bytes", Value::from(data))])),
                        ]),
                    )])),
                    None => drop(losses, "Bedrock images are png, jpeg, gif or webp"),
                }
            }
            MediaSource::Url(_) => drop(losses, "Bedrock takes image bytes or S3, not a URL"),
            MediaSource::FileId { vendor, .. } => drop(
                losses,
                &format!("a {vendor} file id means nothing to Bedrock"),
            ),
            MediaSource::Text { .. } => drop(losses, "not an image"),
        };
    }
    let (format, source) = match &m.source {
        MediaSource::Base64 { media_type, data } => {
            match DOCUMENT_FORMATS.iter().find(|(_, mt)| mt == media_type) {
                Some((f, _)) => (*f, obj(vec![("bytes", Value::from(data))])),
                None => {
                    return drop(
                        losses,
                        "Bedrock documents are pdf, csv, doc, docx, xls, xlsx, html, txt or md",
                    );
                }
            }
        }
        MediaSource::Text { data, .. } => ("txt", obj(vec![("text", Value::from(data))])),
        MediaSource::Url(_) => {
            return drop(losses, "Bedrock takes document bytes or S3, not a URL");
        }
        MediaSource::FileId { vendor, .. } => {
            return drop(
                losses,
                &format!("a {vendor} file id means nothing to Bedrock"),
            );
        }
    };
    let name = match &m.filename {
        Some(n) => {
            let clean = document_name(n);
            if &clean != n {
                losses.push(
                    &format!("{at}/filename"),
                    "filename",
                    LossEffect::ReadsBackDifferently,
                    "Bedrock document names take letters, digits, spaces, -, (, ), [ and ]",
                );
            }
            clean
        }
        None => {
            losses.push(
                at,
                "name",
                LossEffect::ReadsBackDifferently,
                "Bedrock requires a document name: \"document\" is written, which reads back \
                 as the file name",
            );
            "document".into()
        }
    };
    Some(obj(vec![(
        "document",
        obj(vec![
            ("format", Value::from(format)),
            ("name", Value::from(&name)),
            ("source", source),
        ]),
    )]))
}

/// Writes a text block for Bedrock.
pub(crate) fn text(t: &str) -> Value {
    obj(vec![("text", Value::from(t))])
}
