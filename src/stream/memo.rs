//! Events that repeat the last one's envelope, read without the envelope
//! readers: the tape tells what changed since the last event and what the
//! readers looked at in it.

use super::node::Json;
use super::read::Piece;
use super::tape::{Changed, Node};

/// An event whose envelope readers took one string of it as the only piece
/// of the answer, looked at nothing else in that string, and changed nothing
/// else: an event that is the same but for that string's content (and values
/// the readers did not look at) is read by taking its content as the piece.
#[derive(Debug)]
pub(super) struct Memo {
    /// The string's token on the tape, the event's SSE name, and the kind of piece.
    token: usize,
    name: Option<String>,
    tool: bool,
    /// The tokens the readers looked at: those may not change.
    looked: u128,
}

impl Memo {
    /// What an event just read was, if it can stand for the next ones: its
    /// readers left the record as it was (`unchanged`) and gave one `piece`.
    pub(super) fn of(event: Node<'_>, name: Option<&str>, unchanged: bool, piece: Option<Piece<'_>>) -> Option<Memo> {
        let (tool, s) = match piece.filter(|_| unchanged)? {
            Piece::Text(s) => (false, s),
            Piece::Tool(s) => (true, s),
        };
        let token = event.token_of(s)?;
        event.passed_through(token).then(|| Memo {
            token,
            name: name.map(str::to_owned),
            tool,
            looked: event.looked_at(),
        })
    }

    /// The piece of `event` (named `name`), when it is the remembered event
    /// but for the piece and what its readers did not look at.
    pub(super) fn piece<'v>(&self, event: Node<'v>, name: Option<&str>) -> Option<Piece<'v>> {
        (self.name.as_deref() == name && event.changed().within(self.token, self.looked)).then_some(())?;
        let t = event.nth(self.token).text()?;
        Some(if self.tool { Piece::Tool(t) } else { Piece::Text(t) })
    }

    /// Worth finding out for an event that is the last one but for a few values.
    pub(super) fn worth_trying(event: Node<'_>) -> bool {
        event.changed() != Changed::More
    }
}
