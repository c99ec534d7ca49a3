//! Gemini user and system parts: `{"text"}`, `{"inlineData": {"mimeType",
//! "data"}}` (an image or a document by its MIME type); `fileData` (a
//! Files API or Cloud Storage URI) and any other part are kept verbatim for
//! Gemini only.

use crate::value::{Map, Value};

use super::{Media, MediaSource, Place, obj};
use crate::protocol::ResultPart;
use crate::protocol::loss::{LossEffect, Losses};

/// One Gemini part as a content part (`None`: not one this layer models).
pub(crate) fn read_part(p: &Value) -> Option<ResultPart> {
    let o = p.as_object()?;
    if o.len() != 1 {
        return None;
    }
    if let Some(Value::String(t)) = o.get("text") {
        return Some(ResultPart::Text(t.clone()));
    }
    let d = o.get("inlineData")?.as_object()?;
    if d.len() != 2 {
        return None;
    }
    let media_type = d.get("mimeType")?.as_str()?.to_owned();
    let data = d.get("data")?.as_str()?.to_owned();
    let image = media_type.starts_with("image/");
    let m = Media::new(MediaSource::Base64 { media_type, data });
    Some(if image {
        ResultPart::Image(m)
    } else {
        ResultPart::Document(m)
    })
}

/// A MIME type for a URL's file extension, where it says one.
fn mime_of_url(url: &str) -> Option<&'static str> {
    let path = url.split(['?', '#']).next().unwrap_or(url);
    let ext = path.rsplit('.').next()?.to_ascii_lowercase();
    Some(match ext.as_str() {
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "pdf" => "application/pdf",
        _ => return None,
    })
}

/// Writes an image or document part for Gemini, or records why not.
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
        return drop(losses, "Gemini system instructions are text here");
    }
    if place == Place::ToolResult {
        return drop(
            losses,
            "a Gemini functionResponse carries JSON: images and documents are left out",
        );
    }
    if m.detail.is_some() {
        losses.push(
            &format!("{at}/detail"),
            "detail",
            LossEffect::Dropped,
            "Gemini parts have no detail setting",
        );
    }
    if m.filename.is_some() {
        losses.push(
            &format!("{at}/filename"),
            "filename",
            LossEffect::Dropped,
            "Gemini inline data has no file name",
        );
    }
    match &m.source {
        MediaSource::Base64 { media_type, data } => Some(obj(vec![(
            "inlineData",
            obj(vec![
                ("mimeType", Value::from(media_type)),
                ("data", Value::from(data)),
            ]),
        )])),
        MediaSource::Url(u) => {
            losses.push(
                at,
                kind,
                LossEffect::ReadsBackDifferently,
                "a URL is written as a Gemini fileData part, which reads back as that part",
            );
            let mut f = Map::new();
            if let Some(mt) = mime_of_url(u) {
                f.insert("mimeType".into(), Value::from(mt));
            }
            f.insert("fileUri".into(), Value::from(u));
            Some(obj(vec![("fileData", Value::Object(f))]))
        }
        MediaSource::FileId { vendor, .. } => drop(
            losses,
            &format!("a {vendor} file id means nothing to Gemini"),
        ),
        MediaSource::Text { .. } => drop(losses, "Gemini has no plain-text document part"),
    }
}

/// Writes a text part for Gemini.
pub(crate) fn text(t: &str) -> Value {
    obj(vec![("text", Value::from(t))])
}
