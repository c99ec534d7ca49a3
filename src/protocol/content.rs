//! Content parts (text, images, documents) of user, system and tool-result
//! content in the three vendors' spellings, and where each vendor allows
//! which: the converter that writes a part for another vendor or reports it.

use crate::value::{Map, Value};

use super::Vendor;
use super::loss::{LossEffect, Losses};

mod bedrock;
mod gemini;

/// Where a content part stands; the vendors allow different parts in each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// A user message.
    User,
    /// A system or developer prompt.
    System,
    /// The content of a tool result.
    ToolResult,
}

/// Where an image or document comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MediaSource {
    /// Inline bytes: Anthropic `{"type":"base64","media_type","data"}`, OpenAI a
    /// `data:<media_type>;base64,<data>` URL.
    Base64 {
        /// The MIME type (`image/png`, `application/pdf`).
        media_type: String,
        /// The base64 text.
        data: String,
    },
    /// A URL the provider fetches.
    Url(String),
    /// A file uploaded to the provider's Files API. The id belongs to that
    /// provider: it does not cross to another.
    FileId {
        /// The vendor that issued the id.
        vendor: Vendor,
        /// The id.
        id: String,
    },
    /// Anthropic plain-text document source (`{"type":"text","media_type","data"}`).
    Text {
        /// The MIME type (`text/plain`).
        media_type: String,
        /// The text.
        data: String,
    },
}

/// An image or a document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Media {
    /// Where its bytes are.
    pub source: MediaSource,
    /// OpenAI image `detail` (`low`, `high`, `auto`).
    pub detail: Option<String>,
    /// OpenAI file `filename`.
    pub filename: Option<String>,
}

impl Media {
    /// Media with only a source.
    pub fn new(source: MediaSource) -> Media {
        Media {
            source,
            detail: None,
            filename: None,
        }
    }
}

fn data_url(media_type: &str, data: &str) -> String {
    format!("data:{media_type};base64,{data}")
}

/// A `data:<type>;base64,<data>` URL as a base64 source; any other URL as a
/// URL source.
fn from_url(url: &str) -> MediaSource {
    if let Some(rest) = url.strip_prefix("data:")
        && let Some((media_type, data)) = rest.split_once(";base64,")
        && !media_type.contains([',', ';'])
    {
        return MediaSource::Base64 {
            media_type: media_type.to_owned(),
            data: data.to_owned(),
        };
    }
    MediaSource::Url(url.to_owned())
}

fn keys_are(o: &Map, allowed: &[&str]) -> bool {
    o.keys().all(|k| allowed.contains(&k))
}

fn opt_str(o: &Map, key: &str) -> Option<Option<String>> {
    match o.get(key) {
        None => Some(None),
        Some(Value::String(t)) => Some(Some(t.clone())),
        Some(_) => None,
    }
}

/// One content part, read from any vendor. Parts this layer does not model
/// (audio, search results, parts with extra members such as
/// `cache_control`) are [`ResultPart::Native`](super::ResultPart::Native).
pub(crate) fn read_part(vendor: Vendor, p: &Value) -> Option<super::ResultPart> {
    use super::ResultPart as P;
    match vendor {
        Vendor::Gemini => return gemini::read_part(p),
        Vendor::Bedrock => return bedrock::read_part(p),
        _ => {}
    }
    let o = p.as_object()?;
    let ty = o.get("type")?.as_str()?;
    let text_ty = match vendor {
        Vendor::OpenAiResponses => "input_text",
        _ => "text",
    };
    if ty == text_ty && o.len() == 2 {
        return Some(P::Text(o.get("text")?.as_str()?.to_owned()));
    }
    match (vendor, ty) {
        (Vendor::Anthropic, "image" | "document") if o.len() == 2 => {
            let src = o.get("source")?.as_object()?;
            let source = match src.get("type")?.as_str()? {
                "base64" if src.len() == 3 => MediaSource::Base64 {
                    media_type: src.get("media_type")?.as_str()?.to_owned(),
                    data: src.get("data")?.as_str()?.to_owned(),
                },
                "text" if src.len() == 3 && ty == "document" => MediaSource::Text {
                    media_type: src.get("media_type")?.as_str()?.to_owned(),
                    data: src.get("data")?.as_str()?.to_owned(),
                },
                "url" if src.len() == 2 => MediaSource::Url(src.get("url")?.as_str()?.to_owned()),
                "file" if src.len() == 2 => MediaSource::FileId {
                    vendor,
                    id: src.get("file_id")?.as_str()?.to_owned(),
                },
                _ => return None,
            };
            let m = Media::new(source);
            Some(if ty == "image" {
                P::Image(m)
            } else {
                P::Document(m)
            })
        }
        (Vendor::OpenAiChat, "image_url") if o.len() == 2 => {
            let iu = o.get("image_url")?.as_object()?;
            if !keys_are(iu, &["url", "detail"]) {
                return None;
            }
            Some(P::Image(Media {
                source: from_url(iu.get("url")?.as_str()?),
                detail: opt_str(iu, "detail")?,
                filename: None,
            }))
        }
        (Vendor::OpenAiChat, "file") if o.len() == 2 => {
            let f = o.get("file")?.as_object()?;
            if !keys_are(f, &["file_data", "file_id", "filename"]) {
                return None;
            }
            let source = match (f.get("file_data"), f.get("file_id")) {
                (Some(Value::String(d)), None) => match from_url(d) {
                    b @ MediaSource::Base64 { .. } => b,
                    _ => return None,
                },
                (None, Some(Value::String(id))) => MediaSource::FileId {
                    vendor,
                    id: id.clone(),
                },
                _ => return None,
            };
            Some(P::Document(Media {
                source,
                detail: None,
                filename: opt_str(f, "filename")?,
            }))
        }
        (Vendor::OpenAiResponses, "input_image") => {
            if !keys_are(o, &["type", "image_url", "file_id", "detail"]) {
                return None;
            }
            let source = match (o.get("image_url"), o.get("file_id")) {
                (Some(Value::String(u)), None) => from_url(u),
                (None, Some(Value::String(id))) => MediaSource::FileId {
                    vendor,
                    id: id.clone(),
                },
                _ => return None,
            };
            Some(P::Image(Media {
                source,
                detail: opt_str(o, "detail")?,
                filename: None,
            }))
        }
        (Vendor::OpenAiResponses, "input_file") => {
            if !keys_are(o, &["type", "file_data", "file_id", "file_url", "filename"]) {
                return None;
            }
            let source = match (o.get("file_data"), o.get("file_id"), o.get("file_url")) {
                (Some(Value::String(d)), None, None) => match from_url(d) {
                    b @ MediaSource::Base64 { .. } => b,
                    _ => return None,
                },
                (None, Some(Value::String(id)), None) => MediaSource::FileId {
                    vendor,
                    id: id.clone(),
                },
                (None, None, Some(Value::String(u))) => MediaSource::Url(u.clone()),
                _ => return None,
            };
            Some(P::Document(Media {
                source,
                detail: None,
                filename: opt_str(o, "filename")?,
            }))
        }
        _ => None,
    }
}

/// The text of a text part of `vendor` that carries other members too.
fn native_text(vendor: Vendor, part: &Value) -> Option<&str> {
    let o = part.as_object()?;
    let ty = o.get("type").and_then(Value::as_str);
    let is_text = match vendor {
        Vendor::Gemini | Vendor::Bedrock => ty.is_none() && !o.contains_key("thought"),
        Vendor::OpenAiResponses => ty == Some("input_text"),
        _ => ty == Some("text"),
    };
    if is_text {
        o.get("text")?.as_str()
    } else {
        None
    }
}

/// The JSON value of a Bedrock `{"json": ...}` result block (the form
/// this layer also gives a Gemini `functionResponse` output that is no
/// string).
pub(crate) fn json_result(vendor: Vendor, part: &Value) -> Option<&Value> {
    let o = part.as_object()?;
    match vendor {
        Vendor::Bedrock if o.len() == 1 => o.get("json"),
        Vendor::Gemini if o.len() == 1 => o.get("response"),
        _ => None,
    }
}

/// The members of a content part that [`read_part`] models, in any vendor.
const PART_CORE: [&str; 10] = [
    "type",
    "text",
    "source",
    "image_url",
    "file",
    "file_data",
    "file_id",
    "file_url",
    "filename",
    "detail",
];

pub(crate) fn obj(pairs: Vec<(&str, Value)>) -> Value {
    let mut o = Map::new();
    for (k, v) in pairs {
        o.insert(k.to_owned(), v);
    }
    Value::Object(o)
}

/// Records a part that cannot be written for the target (`part`: its kind,
/// `why`: the reason) and writes nothing.
fn dropped(losses: &mut Losses, at: &str, part: &str, why: &str) -> Option<Value> {
    losses.push(at, part, LossEffect::Dropped, why);
    None
}

/// Writes one part for `vendor` at `place`, or records why it cannot be
/// (and returns `None`). `at` is the part's JSON Pointer in the source.
///
/// `from`: the vendor whose message holds the part (`None`: built in code);
/// a default spelled for one vendor (an image's `detail: "auto"`, which
/// Responses requires) is written as that vendor wrote it.
pub(crate) fn write_part(
    p: &super::ResultPart,
    vendor: Vendor,
    from: Option<Vendor>,
    place: Place,
    at: &str,
    losses: &mut Losses,
) -> Option<Value> {
    use super::ResultPart as P;
    match (p, vendor) {
        (P::Text(t), Vendor::Gemini) => return Some(gemini::text(t)),
        (P::Text(t), Vendor::Bedrock) => return Some(bedrock::text(t)),
        (P::Image(m) | P::Document(m), Vendor::Gemini) => {
            return gemini::write_media(m, matches!(p, P::Image(_)), place, at, losses);
        }
        (P::Image(m) | P::Document(m), Vendor::Bedrock) => {
            return bedrock::write_media(m, matches!(p, P::Image(_)), place, at, losses);
        }
        // A text part of another vendor with members of its own (an
        // Anthropic `cache_control`): the text crosses, the members do not.
        (P::Native { vendor: from, part }, Vendor::Gemini | Vendor::Bedrock)
            if *from != vendor && json_result(*from, part).is_none() =>
        {
            if let Some(t) = native_text(*from, part) {
                if let Some(o) = part.as_object() {
                    for k in o.keys().filter(|k| !matches!(*k, "type" | "text")) {
                        losses.push(
                            &format!("{at}/{k}"),
                            k,
                            LossEffect::Dropped,
                            &format!("{vendor} has no counterpart of this {from} member"),
                        );
                    }
                }
                return write_part(
                    &P::Text(t.to_owned()),
                    vendor,
                    Some(*from),
                    place,
                    at,
                    losses,
                );
            }
        }
        _ => {}
    }
    match p {
        P::Text(t) => Some(obj(vec![
            (
                "type",
                Value::from(if vendor == Vendor::OpenAiResponses {
                    "input_text"
                } else {
                    "text"
                }),
            ),
            ("text", Value::from(t)),
        ])),
        P::Native {
            vendor: native_from,
            part,
        } => write_native_part(*native_from, part, vendor, place, at, losses),
        P::Image(m) | P::Document(m) => {
            let media = MediaPart {
                media: m,
                image: matches!(p, P::Image(_)),
                from,
                at,
            };
            write_media_part(&media, vendor, place, losses)
        }
    }
}

/// Writes a part kept verbatim from vendor `from` for another vendor: as
/// it was for `from`, as the part this layer knows it to be (its own
/// members lost), as text for a JSON result, or not at all.
fn write_native_part(
    from: Vendor,
    part: &Value,
    vendor: Vendor,
    place: Place,
    at: &str,
    losses: &mut Losses,
) -> Option<Value> {
    use super::ResultPart as P;
    if from == vendor {
        return Some(part.clone());
    }
    // A JSON result (Bedrock `json`; a Gemini `functionResponse`
    // output that is no string) crosses as its text.
    if let Some(j) = json_result(from, part) {
        losses.push(
            at,
            "json",
            LossEffect::ReadsBackDifferently,
            &format!("{vendor} takes no JSON here: written as its text, which reads back as text"),
        );
        return write_part(
            &P::Text(j.to_string()),
            vendor,
            Some(from),
            place,
            at,
            losses,
        );
    }
    // A part built by hand as native may still be one this layer knows.
    if let Some(known) = read_part(from, part)
        && !matches!(known, P::Native { .. })
    {
        return write_part(&known, vendor, Some(from), place, at, losses);
    }
    // A known part with members only its vendor has (`cache_control`,
    // a document `title`): the part crosses, each such member is lost.
    if let Some(o) = part.as_object() {
        let (core, others): (Map, Map) = o
            .iter()
            .map(|(k, v)| (k.to_owned(), v.clone()))
            .partition(|(k, _)| PART_CORE.contains(&k.as_str()));
        if !others.is_empty()
            && let Some(known) = read_part(from, &Value::Object(core))
        {
            for k in others.keys() {
                losses.push(
                    &super::error::ptr(at, k),
                    k,
                    LossEffect::Dropped,
                    &format!("{vendor} has no counterpart of this {from} member"),
                );
            }
            return write_part(&known, vendor, Some(from), place, at, losses);
        }
    }
    let ty = part
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("part")
        .to_owned();
    dropped(
        losses,
        at,
        &ty,
        &format!("{vendor} has no counterpart of this {from} part"),
    )
}

/// An image or document part being written for Anthropic or OpenAI.
struct MediaPart<'a> {
    media: &'a Media,
    image: bool,
    /// The vendor whose message holds the part.
    from: Option<Vendor>,
    /// The part's pointer in the source.
    at: &'a str,
}

impl MediaPart<'_> {
    fn kind(&self) -> &'static str {
        if self.image { "image" } else { "document" }
    }
}

/// Writes an image or document for Anthropic or OpenAI, or records why the
/// target cannot take it here.
fn write_media_part(
    p: &MediaPart<'_>,
    vendor: Vendor,
    place: Place,
    losses: &mut Losses,
) -> Option<Value> {
    let (m, at, kind) = (p.media, p.at, p.kind());
    if place == Place::System {
        return dropped(
            losses,
            at,
            kind,
            &format!("{vendor} system prompts take text only"),
        );
    }
    if vendor == Vendor::OpenAiChat && place == Place::ToolResult {
        return dropped(
            losses,
            at,
            kind,
            "OpenAI Chat tool messages take text parts only",
        );
    }
    if let MediaSource::FileId { vendor: issuer, .. } = &m.source
        && *issuer != vendor
        && !(issuer != &Vendor::Anthropic && vendor != Vendor::Anthropic)
    {
        return dropped(
            losses,
            at,
            kind,
            &format!("a {issuer} file id means nothing to {vendor}"),
        );
    }
    if matches!(vendor, Vendor::OpenAiChat | Vendor::OpenAiResponses)
        && matches!(m.source, MediaSource::Text { .. })
    {
        return dropped(losses, at, kind, "OpenAI has no plain-text document part");
    }
    match vendor {
        // Written by their own writers.
        Vendor::Gemini | Vendor::Bedrock => None,
        Vendor::Anthropic => Some(anthropic_media(p, losses)),
        Vendor::OpenAiChat if p.image => chat_image(p, losses),
        Vendor::OpenAiChat => chat_file(p, losses),
        Vendor::OpenAiResponses => responses_media(p),
    }
}

/// An Anthropic `image` or `document` block; the OpenAI members it has no
/// place for are lost.
fn anthropic_media(p: &MediaPart<'_>, losses: &mut Losses) -> Value {
    let (m, at) = (p.media, p.at);
    // `auto` is the default: it says nothing Anthropic lacks.
    if m.detail.as_deref().is_some_and(|d| d != "auto") {
        losses.push(
            &format!("{at}/detail"),
            "detail",
            LossEffect::Dropped,
            "Anthropic images have no detail setting",
        );
    }
    if m.filename.is_some() {
        losses.push(
            &format!("{at}/filename"),
            "filename",
            LossEffect::Dropped,
            "Anthropic documents have no file name",
        );
    }
    let source = match &m.source {
        MediaSource::Base64 { media_type, data } => obj(vec![
            ("type", Value::from("base64")),
            ("media_type", Value::from(media_type)),
            ("data", Value::from(data)),
        ]),
        MediaSource::Text { media_type, data } => obj(vec![
            ("type", Value::from("text")),
            ("media_type", Value::from(media_type)),
            ("data", Value::from(data)),
        ]),
        MediaSource::Url(u) => obj(vec![("type", Value::from("url")), ("url", Value::from(u))]),
        MediaSource::FileId { id, .. } => obj(vec![
            ("type", Value::from("file")),
            ("file_id", Value::from(id)),
        ]),
    };
    obj(vec![("type", Value::from(p.kind())), ("source", source)])
}

/// A Chat `image_url` part: a URL or inline bytes as a data URL.
fn chat_image(p: &MediaPart<'_>, losses: &mut Losses) -> Option<Value> {
    let m = p.media;
    let url = match &m.source {
        MediaSource::Base64 { media_type, data } => data_url(media_type, data),
        MediaSource::Url(u) => u.clone(),
        MediaSource::FileId { .. } | MediaSource::Text { .. } => {
            return dropped(losses, p.at, p.kind(), "OpenAI Chat images take a URL only");
        }
    };
    let mut iu = vec![("url", Value::from(&url))];
    match &m.detail {
        // The default, said only because Responses must.
        Some(d) if d == "auto" && p.from != Some(Vendor::OpenAiChat) => {}
        Some(d) => iu.push(("detail", Value::from(d))),
        None => {}
    }
    Some(obj(vec![
        ("type", Value::from("image_url")),
        ("image_url", obj(iu)),
    ]))
}

/// A Chat `file` part: inline bytes or a file id (Chat file parts take no
/// URL).
fn chat_file(p: &MediaPart<'_>, losses: &mut Losses) -> Option<Value> {
    let m = p.media;
    let mut f = match &m.source {
        MediaSource::Base64 { media_type, data } => {
            vec![("file_data", Value::from(&data_url(media_type, data)))]
        }
        MediaSource::FileId { id, .. } => vec![("file_id", Value::from(id))],
        MediaSource::Url(_) => {
            return dropped(losses, p.at, p.kind(), "OpenAI Chat file parts take no URL");
        }
        MediaSource::Text { .. } => return None,
    };
    if let Some(n) = &m.filename {
        f.push(("filename", Value::from(n)));
    }
    Some(obj(vec![("type", Value::from("file")), ("file", obj(f))]))
}

/// A Responses `input_image` or `input_file` part.
fn responses_media(p: &MediaPart<'_>) -> Option<Value> {
    let (m, image) = (p.media, p.image);
    let mut o = vec![(
        "type",
        Value::from(if image { "input_image" } else { "input_file" }),
    )];
    match (&m.source, image) {
        (MediaSource::Base64 { media_type, data }, true) => {
            o.push(("image_url", Value::from(&data_url(media_type, data))))
        }
        (MediaSource::Url(u), true) => o.push(("image_url", Value::from(u))),
        (MediaSource::Base64 { media_type, data }, false) => {
            o.push(("file_data", Value::from(&data_url(media_type, data))))
        }
        (MediaSource::Url(u), false) => o.push(("file_url", Value::from(u))),
        (MediaSource::FileId { id, .. }, _) => o.push(("file_id", Value::from(id))),
        (MediaSource::Text { .. }, _) => return None,
    }
    if let Some(n) = &m.filename {
        o.push(("filename", Value::from(n)));
    }
    // Responses requires an image's detail; `auto` is the
    // default of the others.
    match (&m.detail, image) {
        (Some(d), _) => o.push(("detail", Value::from(d))),
        (None, true) if p.from != Some(Vendor::OpenAiResponses) => {
            o.push(("detail", Value::from("auto")))
        }
        (None, _) => {}
    }
    Some(obj(o))
}
