//! AWS event-stream frames (`application/vnd.amazon.eventstream`), as the
//! Bedrock runtimes send streamed responses: each frame decoded to
//! `{"headers": {name: value}, "payload": JSON}`, the shape the `exchange`
//! dialect reads a stream's events in.
//!
//! A frame is its total length and its headers' length (big-endian u32), a
//! prelude CRC, the headers, the payload and a message CRC. The CRCs are
//! not checked: a recording is read as it was written, and a frame that
//! does not fit its lengths ends the decoding with None.

use serde_json::{Map, Value};

/// The frames of `data`; None when it is not a whole event stream.
pub fn frames(mut data: &[u8]) -> Option<Vec<Value>> {
    let mut out = Vec::new();
    while !data.is_empty() {
        let total = u32_at(data, 0)? as usize;
        let headers_len = u32_at(data, 4)? as usize;
        if total < 16 + headers_len || total > data.len() {
            return None;
        }
        let headers = headers(data.get(12..12 + headers_len)?)?;
        let payload = &data[12 + headers_len..total - 4];
        let payload = serde_json::from_slice(payload)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(payload).into_owned()));
        let mut frame = Map::new();
        frame.insert("headers".into(), Value::Object(headers));
        frame.insert("payload".into(), payload);
        out.push(Value::Object(frame));
        data = &data[total..];
    }
    Some(out)
}

fn u32_at(data: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(data.get(at..at + 4)?.try_into().ok()?))
}

/// A frame's headers: strings kept, other values as numbers or booleans.
fn headers(mut data: &[u8]) -> Option<Map<String, Value>> {
    let mut out = Map::new();
    while !data.is_empty() {
        let name_len = *data.first()? as usize;
        let name = std::str::from_utf8(data.get(1..1 + name_len)?).ok()?;
        let kind = *data.get(1 + name_len)?;
        data = &data[2 + name_len..];
        let (value, used) = header_value(kind, data)?;
        out.insert(name.to_owned(), value);
        data = &data[used..];
    }
    Some(out)
}

/// One header value of type `kind` at the start of `data`, and its length.
fn header_value(kind: u8, data: &[u8]) -> Option<(Value, usize)> {
    let fixed = |n: usize| -> Option<(Value, usize)> {
        let b = data.get(..n)?;
        let v = b.iter().fold(0i64, |a, &x| (a << 8) | i64::from(x));
        Some((Value::from(v), n))
    };
    match kind {
        0 => Some((Value::Bool(true), 0)),
        1 => Some((Value::Bool(false), 0)),
        2 => fixed(1),
        3 => fixed(2),
        4 => fixed(4),
        5 | 8 => fixed(8),
        9 => Some((Value::Null, 16)).filter(|_| data.len() >= 16),
        6 | 7 => {
            let len = u16::from_be_bytes(data.get(..2)?.try_into().ok()?) as usize;
            let bytes = data.get(2..2 + len)?;
            Some((
                Value::String(String::from_utf8_lossy(bytes).into_owned()),
                2 + len,
            ))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(event: &str, payload: &str) -> Vec<u8> {
        let mut headers = Vec::new();
        let name = b":event-type";
        headers.push(name.len() as u8);
        headers.extend_from_slice(name);
        headers.push(7);
        headers.extend_from_slice(&(event.len() as u16).to_be_bytes());
        headers.extend_from_slice(event.as_bytes());
        let total = 16 + headers.len() + payload.len();
        let mut out = Vec::new();
        out.extend_from_slice(&(total as u32).to_be_bytes());
        out.extend_from_slice(&(headers.len() as u32).to_be_bytes());
        out.extend_from_slice(&[0; 4]);
        out.extend_from_slice(&headers);
        out.extend_from_slice(payload.as_bytes());
        out.extend_from_slice(&[0; 4]);
        out
    }

    #[test]
    fn frames_decode_to_headers_and_payload() {
        let mut data = frame("chunk", "{\"bytes\": \"SGk=\"}");
        data.extend(frame("trace", "{\"t\": 1}"));
        let events = frames(&data).unwrap();
        assert_eq!(events.len(), 2);
        assert_eq!(events[0]["headers"][":event-type"], "chunk");
        assert_eq!(events[0]["payload"]["bytes"], "SGk=");
        assert_eq!(events[1]["payload"]["t"], 1);
        // A cut frame is not a whole stream.
        assert!(frames(&data[..data.len() - 3]).is_none());
        assert!(frames(b"{\"a\": 1}").is_none());
    }
}
