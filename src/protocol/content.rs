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
    let drop = |losses: &mut Losses, part: &str, why: &str| {
        losses.push(at, part, LossEffect::Dropped, why);
        None
    };
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
        P::Native { vendor: from, part } => {
            if *from == vendor {
                return Some(part.clone());
            }
            // A JSON result (Bedrock `json`; a Gemini `functionResponse`
            // output that is no string) crosses as its text.
            if let Some(j) = json_result(*from, part) {
                losses.push(
                    at,
                    "json",
                    LossEffect::ReadsBackDifferently,
                    &format!(
                        "{vendor} takes no JSON here: written as its text, which reads back as text"
                    ),
                );
                return write_part(
                    &P::Text(j.to_string()),
                    vendor,
                    Some(*from),
                    place,
                    at,
                    losses,
                );
            }
            // A part built by hand as native may still be one this layer knows.
            if let Some(known) = read_part(*from, part)
                && !matches!(known, P::Native { .. })
            {
                return write_part(&known, vendor, Some(*from), place, at, losses);
            }
            // A known part with members only its vendor has (`cache_control`,
            // a document `title`): the part crosses, each such member is lost.
            if let Some(o) = part.as_object() {
                let (core, others): (Map, Map) = o
                    .iter()
                    .map(|(k, v)| (k.to_owned(), v.clone()))
                    .partition(|(k, _)| PART_CORE.contains(&k.as_str()));
                if !others.is_empty()
                    && let Some(known) = read_part(*from, &Value::Object(core))
                {
                    for k in others.keys() {
                        losses.push(
                            &super::error::ptr(at, k),
                            k,
                            LossEffect::Dropped,
                            &format!("{vendor} has no counterpart of this {from} member"),
                        );
                    }
                    return write_part(&known, vendor, Some(*from), place, at, losses);
                }
            }
            let ty = part
                .get("type")
                .and_then(Value::as_str)
                .unwrap_or("part")
                .to_owned();
            drop(
                losses,
                &ty,
                &format!("{vendor} has no counterpart of this {from} part"),
            )
        }
        P::Image(m) | P::Document(m) => {
            let image = matches!(p, P::Image(_));
            let kind = if image { "image" } else { "document" };
            if place == Place::System {
                return drop(
                    losses,
                    kind,
                    &format!("{vendor} system prompts take text only"),
                );
            }
            if vendor == Vendor::OpenAiChat && place == Place::ToolResult {
                return drop(
                    losses,
                    kind,
                    "OpenAI Chat tool messages take text parts only",
                );
            }
            if let MediaSource::FileId { vendor: issuer, .. } = &m.source
                && *issuer != vendor
                && !(issuer != &Vendor::Anthropic && vendor != Vendor::Anthropic)
            {
                return drop(
                    losses,
                    kind,
                    &format!("a {issuer} file id means nothing to {vendor}"),
                );
            }
            if vendor == Vendor::Anthropic {
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
            }
            let source = match (&m.source, vendor) {
                (MediaSource::Text { .. }, Vendor::OpenAiChat | Vendor::OpenAiResponses) => {
                    return drop(losses, kind, "OpenAI has no plain-text document part");
                }
                (MediaSource::Base64 { media_type, data }, Vendor::Anthropic) => obj(vec![
                    ("type", Value::from("base64")),
                    ("media_type", Value::from(media_type)),
                    ("data", Value::from(data)),
                ]),
                (MediaSource::Text { media_type, data }, Vendor::Anthropic) => obj(vec![
                    ("type", Value::from("text")),
                    ("media_type", Value::from(media_type)),
                    ("data", Value::from(data)),
                ]),
                (MediaSource::Url(u), Vendor::Anthropic) => {
                    obj(vec![("type", Value::from("url")), ("url", Value::from(u))])
                }
                (MediaSource::FileId { id, .. }, Vendor::Anthropic) => obj(vec![
                    ("type", Value::from("file")),
                    ("file_id", Value::from(id)),
                ]),
                (MediaSource::Url(u), Vendor::OpenAiChat) if !image => {
                    let _ = u;
                    return drop(losses, kind, "OpenAI Chat file parts take no URL");
                }
                // OpenAI shapes are written below from the source directly.
                _ => Value::Null,
            };
            Some(match vendor {
                // Written above.
                Vendor::Gemini | Vendor::Bedrock => return None,
                Vendor::Anthropic => obj(vec![("type", Value::from(kind)), ("source", source)]),
                Vendor::OpenAiChat if image => {
                    let url = match &m.source {
                        MediaSource::Base64 { media_type, data } => data_url(media_type, data),
                        MediaSource::Url(u) => u.clone(),
                        MediaSource::FileId { .. } | MediaSource::Text { .. } => {
                            return drop(losses, kind, "OpenAI Chat images take a URL only");
                        }
                    };
                    let mut iu = vec![("url", Value::from(&url))];
                    match &m.detail {
                        // The default, said only because Responses must.
                        Some(d) if d == "auto" && from != Some(vendor) => {}
                        Some(d) => iu.push(("detail", Value::from(d))),
                        None => {}
                    }
                    obj(vec![
                        ("type", Value::from("image_url")),
                        ("image_url", obj(iu)),
                    ])
                }
                Vendor::OpenAiChat => {
                    let mut f = match &m.source {
                        MediaSource::Base64 { media_type, data } => {
                            vec![("file_data", Value::from(&data_url(media_type, data)))]
                        }
                        MediaSource::FileId { id, .. } => vec![("file_id", Value::from(id))],
                        MediaSource::Url(_) | MediaSource::Text { .. } => return None,
                    };
                    if let Some(n) = &m.filename {
                        f.push(("filename", Value::from(n)));
                    }
                    obj(vec![("type", Value::from("file")), ("file", obj(f))])
                }
                Vendor::OpenAiResponses => {
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
                        (None, true) if from != Some(vendor) => {
                            o.push(("detail", Value::from("auto")))
                        }
                        (None, _) => {}
                    }
                    obj(o)
                }
            })
        }
    }
}
