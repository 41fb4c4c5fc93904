//! Why the server failed, split by audience: the `idea` binary turns [`ServerError::User`]
//! into exit 2 and one line, [`ServerError::Internal`] into exit 1 and its causes.

use idea_application::{AppError, ErrorKind, WireError};
use std::error::Error;

/// A failure of the server, split by audience.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// Bad input, unknown agent, corrupt file, not a project, a project owned by another
    /// process: something the user can fix.
    #[error("{0}")]
    User(String),
    /// A failure of the machine or of IdeA; what caused it are its sources.
    #[error(transparent)]
    Internal(Box<dyn Error + Send + Sync>),
}

impl ServerError {
    /// An internal failure: `what` failed because of `cause`.
    pub fn internal(what: &str, cause: impl Error + Send + Sync + 'static) -> Self {
        Self::Internal(Box::new(Failed {
            what: what.to_owned(),
            cause: Box::new(cause),
        }))
    }

    /// An internal failure told in one message, with no cause to add.
    pub fn internal_message(message: String) -> Self {
        Self::Internal(message.into())
    }
}

/// `what` failed, because of its source.
#[derive(Debug, thiserror::Error)]
#[error("{what}")]
struct Failed {
    what: String,
    #[source]
    cause: Box<dyn Error + Send + Sync>,
}

impl From<AppError> for ServerError {
    fn from(error: AppError) -> Self {
        if error.is_user_error() {
            Self::User(error.to_string())
        } else {
            Self::Internal(Box::new(error))
        }
    }
}

/// An error answer of the API (from the owner's socket, say), by the same rule.
impl From<WireError> for ServerError {
    fn from(error: WireError) -> Self {
        match error.kind {
            ErrorKind::Internal | ErrorKind::IoError { .. } => {
                Self::internal_message(error.message)
            }
            _ => Self::User(error.message),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The error and its sources, as `{:#}` of the binary's `anyhow` prints them.
    fn chain(error: &(dyn Error + 'static)) -> Vec<String> {
        let mut chain = vec![error.to_string()];
        let mut next = error.source();
        while let Some(source) = next {
            chain.push(source.to_string());
            next = source.source();
        }
        chain
    }

    #[test]
    fn an_internal_failure_says_what_failed_then_why() {
        let cause = std::io::Error::other("no more threads");
        let error = ServerError::internal("cannot start the runtime", cause);
        assert_eq!(
            chain(&error),
            ["cannot start the runtime", "no more threads"]
        );
    }

    #[test]
    fn wire_errors_keep_their_audience() {
        let user = WireError::new(ErrorKind::InvalidParams, "no such agent");
        assert!(matches!(ServerError::from(user), ServerError::User(m) if m == "no such agent"));
        let internal = WireError::new(ErrorKind::Internal, "the disk is gone");
        let error = ServerError::from(internal);
        assert!(matches!(error, ServerError::Internal(_)));
        assert_eq!(chain(&error), ["the disk is gone"]);
    }
}
