//! Content blocks and user messages: what a tool result shows a model.
//!
//! The block shapes follow the Model Context Protocol's content types (`text`, `image`,
//! `audio`, `resource_link`, `resource`), serialized with the same field names, so MCP
//! results map onto them one to one.
//!
//! This module owns the shapes and their validation; it must not know about tools or the
//! pipeline.

use serde::{Deserialize, Serialize};

use crate::error::{Error, ErrorCode};
use crate::json::JsonValue;

/// One block of model-facing content.
///
/// ```
/// use codemode::ContentBlock;
/// let block = ContentBlock::text("hello");
/// assert_eq!(serde_json::to_value(&block).unwrap(), serde_json::json!({"type": "text", "text": "hello"}));
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[non_exhaustive]
pub enum ContentBlock {
    /// Plain text.
    Text {
        /// The text.
        text: String,
    },
    /// An image, base64-encoded.
    Image {
        /// Base64 data (standard alphabet, padding optional).
        data: String,
        /// The MIME type, e.g. `image/png`.
        #[serde(rename = "mimeType")]
        mime_type: String,
    },
    /// Audio, base64-encoded.
    Audio {
        /// Base64 data.
        data: String,
        /// The MIME type, e.g. `audio/wav`.
        #[serde(rename = "mimeType")]
        mime_type: String,
    },
    /// A link to a resource the client can fetch.
    ResourceLink {
        /// The resource's URI.
        uri: String,
        /// A short name.
        name: String,
        /// What the resource is.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        description: Option<String>,
        /// The resource's MIME type.
        #[serde(default, rename = "mimeType", skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
    },
    /// A resource embedded in the result.
    Resource {
        /// The embedded resource.
        resource: EmbeddedResource,
    },
}

/// The body of an embedded resource: text or base64 bytes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EmbeddedResource {
    /// The resource's URI.
    pub uri: String,
    /// The resource's MIME type.
    #[serde(default, rename = "mimeType", skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Text contents (exactly one of `text` and `blob` is present).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Base64 contents.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blob: Option<String>,
}

impl ContentBlock {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Self {
        ContentBlock::Text { text: text.into() }
    }

    /// An image block from base64 `data` and its MIME type.
    pub fn image(data: impl Into<String>, mime_type: impl Into<String>) -> Self {
        ContentBlock::Image {
            data: data.into(),
            mime_type: mime_type.into(),
        }
    }

    /// The block's `type` tag.
    pub fn kind(&self) -> &'static str {
        match self {
            ContentBlock::Text { .. } => "text",
            ContentBlock::Image { .. } => "image",
            ContentBlock::Audio { .. } => "audio",
            ContentBlock::ResourceLink { .. } => "resource_link",
            ContentBlock::Resource { .. } => "resource",
        }
    }

    /// The text of a text block.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            ContentBlock::Text { text } => Some(text),
            _ => None,
        }
    }

    /// Whether this is an image block.
    pub fn is_image(&self) -> bool {
        matches!(self, ContentBlock::Image { .. })
    }

    /// Checks what serde cannot: base64 payloads are base64, MIME types look like
    /// `type/subtype`, an embedded resource has exactly one of `text` and `blob`.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::InvalidDefinition`] naming the block's kind when an image's or audio's MIME
    /// type is not `type/subtype` or its data is not base64, a resource (link) has an empty
    /// `uri`, or an embedded resource has not exactly one of `text` and `blob` (or a non-base64
    /// `blob`).
    pub fn validate(&self) -> Result<(), Error> {
        let invalid = |what: String| Err(Error::new(ErrorCode::InvalidDefinition, what));
        match self {
            ContentBlock::Text { .. } => Ok(()),
            ContentBlock::Image { data, mime_type } | ContentBlock::Audio { data, mime_type } => {
                if !is_mime_type(mime_type) {
                    return invalid(format!(
                        "{} content has MIME type {mime_type:?}, expected `type/subtype`",
                        self.kind()
                    ));
                }
                if !is_base64(data) {
                    return invalid(format!("{} content data is not base64", self.kind()));
                }
                Ok(())
            }
            ContentBlock::ResourceLink { uri, .. } => {
                if uri.is_empty() {
                    return invalid("resource_link content has an empty uri".into());
                }
                Ok(())
            }
            ContentBlock::Resource { resource } => {
                if resource.uri.is_empty() {
                    return invalid("resource content has an empty uri".into());
                }
                match (&resource.text, &resource.blob) {
                    (Some(_), None) => Ok(()),
                    (None, Some(blob)) if is_base64(blob) => Ok(()),
                    (None, Some(_)) => invalid("resource content blob is not base64".into()),
                    _ => invalid("resource content needs exactly one of `text` and `blob`".into()),
                }
            }
        }
    }
}

/// Parses and validates a JSON array of content blocks (for results that come from
/// outside: listeners, MCP servers, configuration).
///
/// # Errors
///
/// [`ErrorCode::InvalidDefinition`] when `value` is not an array of content blocks (`not a
/// list of content blocks: ...`), or the first block that fails [`ContentBlock::validate`].
pub fn content_from_json(value: &JsonValue) -> Result<Vec<ContentBlock>, Error> {
    let blocks: Vec<ContentBlock> = serde_json::from_value(value.clone()).map_err(|err| {
        Error::new(
            ErrorCode::InvalidDefinition,
            format!("not a list of content blocks: {err}"),
        )
    })?;
    for block in &blocks {
        block.validate()?;
    }
    Ok(blocks)
}

/// Concatenates the text of every text block, joined by newlines.
pub fn text_of(blocks: &[ContentBlock]) -> String {
    let texts: Vec<&str> = blocks.iter().filter_map(ContentBlock::as_text).collect();
    texts.join("\n")
}

fn is_mime_type(text: &str) -> bool {
    let token = |part: &str| {
        !part.is_empty()
            && part
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"!#$&^_.+-".contains(&b))
    };
    let essence = text.split(';').next().unwrap_or_default().trim();
    match essence.split_once('/') {
        Some((kind, sub)) => token(kind) && token(sub),
        None => false,
    }
}

fn is_base64(text: &str) -> bool {
    let body = text.trim_end_matches('=');
    text.len() - body.len() <= 2
        && body.len() % 4 != 1
        && body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
}

/// Where a user message (a context attached to a result) came from.
///
/// ```
/// use codemode::MessageSource;
/// let source = MessageSource::tool("read_file", "call-1");
/// assert_eq!(source.to_string(), "tool read_file (call call-1)");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[non_exhaustive]
pub enum MessageSource {
    /// A tool call produced it (for example an image a Code Mode program's sub-call
    /// returned).
    Tool {
        /// The tool's name.
        name: String,
        /// The call that produced it.
        #[serde(rename = "callId")]
        call_id: String,
    },
    /// A pipeline listener or plugin produced it.
    Plugin {
        /// The plugin's name.
        name: String,
    },
    /// The host produced it.
    Host,
}

impl MessageSource {
    /// A tool-call source.
    pub fn tool(name: impl Into<String>, call_id: impl Into<String>) -> Self {
        MessageSource::Tool {
            name: name.into(),
            call_id: call_id.into(),
        }
    }

    /// A plugin source.
    pub fn plugin(name: impl Into<String>) -> Self {
        MessageSource::Plugin { name: name.into() }
    }
}

impl std::fmt::Display for MessageSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MessageSource::Tool { name, call_id } => write!(f, "tool {name} (call {call_id})"),
            MessageSource::Plugin { name } => write!(f, "plugin {name}"),
            MessageSource::Host => f.write_str("host"),
        }
    }
}

/// A user-role message that carries its source: the context a tool or listener attaches
/// to a result, appended by the agent loop after the tool results of the step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UserMessage {
    /// Who produced the message.
    pub source: MessageSource,
    /// The message's content.
    pub content: Vec<ContentBlock>,
    /// Optional metadata the producer keeps with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonValue>,
}

impl UserMessage {
    /// A message from `source` with `content`.
    pub fn new(source: MessageSource, content: Vec<ContentBlock>) -> Self {
        UserMessage {
            source,
            content,
            meta: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn blocks_use_mcp_field_names() {
        let image = ContentBlock::image("aGk=", "image/png");
        assert_eq!(
            serde_json::to_value(&image).unwrap(),
            json!({"type": "image", "data": "aGk=", "mimeType": "image/png"})
        );
        let link: ContentBlock = serde_json::from_value(
            json!({"type": "resource_link", "uri": "file:///a", "name": "a"}),
        )
        .unwrap();
        assert_eq!(link.kind(), "resource_link");
        let embedded: ContentBlock = serde_json::from_value(
            json!({"type": "resource", "resource": {"uri": "file:///a", "text": "x"}}),
        )
        .unwrap();
        assert!(embedded.validate().is_ok());
    }

    #[test]
    fn malformed_blocks_are_refused_with_a_reason() {
        let err = content_from_json(&json!([{"type": "video", "url": "x"}])).unwrap_err();
        assert!(
            err.message().contains("not a list of content blocks"),
            "{err}"
        );
        let err = content_from_json(&json!([{"type": "text"}])).unwrap_err();
        assert!(err.message().contains("text"), "{err}");
        let err =
            content_from_json(&json!([{"type": "text", "text": "a", "extra": 1}])).unwrap_err();
        assert!(err.message().contains("extra"), "{err}");
        assert!(
            ContentBlock::image("not base64!", "image/png")
                .validate()
                .is_err()
        );
        assert!(ContentBlock::image("aGk=", "png").validate().is_err());
        assert!(
            ContentBlock::image("aGk", "image/png; charset=x")
                .validate()
                .is_ok()
        );
        let both = ContentBlock::Resource {
            resource: EmbeddedResource {
                uri: "x:y".into(),
                mime_type: None,
                text: Some("a".into()),
                blob: Some("aGk=".into()),
            },
        };
        assert!(both.validate().is_err());
    }

    #[test]
    fn text_of_joins_text_blocks_only() {
        let blocks = vec![
            ContentBlock::text("a"),
            ContentBlock::image("aGk=", "image/png"),
            ContentBlock::text("b"),
        ];
        assert_eq!(text_of(&blocks), "a\nb");
    }

    #[test]
    fn user_messages_carry_their_source() {
        let message = UserMessage::new(
            MessageSource::tool("shot", "c1:code:1"),
            vec![ContentBlock::text("x")],
        );
        let json = serde_json::to_value(&message).unwrap();
        assert_eq!(
            json,
            json!({"source": {"kind": "tool", "name": "shot", "callId": "c1:code:1"}, "content": [{"type": "text", "text": "x"}]})
        );
        assert_eq!(
            serde_json::from_value::<UserMessage>(json).unwrap(),
            message
        );
    }
}
