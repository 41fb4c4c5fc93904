//! The machinery behind the method list: the `methods!` macro, what it declares per method,
//! and how params are decoded.

use idea_application::{ErrorCode, ErrorKind, WireError};
use serde::de::DeserializeOwned;
use serde_json::Value;

/// One declared method, for documentation, the generated TypeScript and the tests.
#[derive(Debug)]
pub struct MethodSpec {
    /// The wire name (`createAgent`).
    pub name: &'static str,
    /// What it does (the doc comment of its declaration).
    pub doc: &'static str,
    /// The error codes its use case can return; any call may also fail with `INVALID_PARAMS`,
    /// `UNKNOWN_METHOD` or `INTERNAL`.
    pub errors: &'static [ErrorCode],
    /// What it does to the project's state, which orders it among its client's calls.
    pub effect: Effect,
}

/// What a method does to the project's state: the order a client's calls take effect in
/// follows from it ([`crate::order`], `docs/api.md` "Order of a client's calls").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Changes nothing another call can see: runs at once, beside the client's other calls.
    Reads,
    /// Changes state: takes effect after the client's earlier changes, before its later ones.
    Writes,
    /// Changes state by queueing work, then waits for its outcome (an ask): ordered like a
    /// write up to the queueing; the wait runs beside the client's later calls.
    Queues,
}

/// Why a call could not become a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeError {
    UnknownMethod(String),
    BadParams { method: String, reason: String },
}

impl From<DecodeError> for WireError {
    fn from(error: DecodeError) -> Self {
        match error {
            DecodeError::UnknownMethod(method) => WireError::new(
                ErrorKind::UnknownMethod {
                    method: method.clone(),
                },
                format!("unknown method \"{method}\""),
            ),
            DecodeError::BadParams { method, reason } => WireError::new(
                ErrorKind::InvalidParams,
                format!("bad params for {method}: {reason}"),
            ),
        }
    }
}

/// Decodes `params` as `P`. The API is by name: params are an object, or absent or `null`
/// for a method that takes none (JSON-RPC 2.0 allows an array too, by position; IdeA does
/// not, and says so as invalid params). Serde alone would read a struct from an array.
pub(crate) fn decode_params<P: DeserializeOwned>(
    method: &str,
    params: Option<Value>,
) -> Result<P, DecodeError> {
    let bad = |reason: String| DecodeError::BadParams {
        method: method.to_owned(),
        reason,
    };
    match params.unwrap_or(Value::Null) {
        // `()` wants `null`, a struct of optional fields `{}`: "no params" may be either.
        Value::Null => serde_json::from_value::<P>(Value::Null)
            .or_else(|_| serde_json::from_value::<P>(Value::Object(Default::default())))
            .map_err(|e| bad(e.to_string())),
        Value::Object(object) if object.is_empty() => {
            serde_json::from_value::<P>(Value::Object(object))
                .or_else(|first| serde_json::from_value::<P>(Value::Null).map_err(|_| first))
                .map_err(|e| bad(e.to_string()))
        }
        Value::Object(object) => {
            serde_json::from_value::<P>(Value::Object(object)).map_err(|e| bad(e.to_string()))
        }
        other => Err(bad(format!(
            "params are passed by name, in an object, not {}",
            kind_of(&other)
        ))),
    }
}

/// `an array`, `a string`, …: what a client sent instead of an object.
fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Array(_) => "an array",
        Value::String(_) => "a string",
        Value::Number(_) => "a number",
        Value::Bool(_) => "a boolean",
        Value::Null => "null",
        Value::Object(_) => "an object",
    }
}

/// Declares methods: `Variant = "wireName" Effect (Params) -> Result, errors [Code, …] => handler;`.
/// Generates the enum, its decoder, its table of [`MethodSpec`]s and (feature `ts`) the
/// method-map entries. With `dispatch`, also the dispatcher calling each handler, whose
/// return type must be `AppResult<Result>`: the declared result cannot drift from the code.
macro_rules! methods {
    // Requests: each has a handler, and the enum gets a dispatcher.
    (
        $(#[$meta:meta])* enum $Enum:ident; table $TABLE:ident; dispatch;
        $(
            $(#[doc = $doc:literal])*
            $Variant:ident = $name:literal $Effect:ident ($Params:ty) -> $Result:ty,
            errors [$($Err:ident),* $(,)?] => $handler:path;
        )*
    ) => {
        methods!(@common $(#[$meta])* enum $Enum; table $TABLE;
            $( $(#[doc = $doc])* $Variant = $name $Effect ($Params) -> $Result, errors [$($Err),*]; )*);

        impl $Enum {
            pub(crate) fn dispatch(
                self,
                deps: &idea_application::Deps,
            ) -> Result<serde_json::Value, idea_application::WireError> {
                let encoded = match self {
                    $( Self::$Variant(params) => {
                        let result: idea_application::AppResult<$Result> = $handler(deps, params);
                        result.map_err(|e| e.to_wire()).map(|r| serde_json::to_value(r))
                    } )*
                }?;
                encoded.map_err(|e| idea_application::WireError::new(
                    idea_application::ErrorKind::Internal,
                    format!("cannot encode the result: {e}"),
                ))
            }
        }
    };
    // Stream methods: declared for the table and the TypeScript; the transport handles them.
    (
        $(#[$meta:meta])* enum $Enum:ident; table $TABLE:ident;
        $(
            $(#[doc = $doc:literal])*
            $Variant:ident = $name:literal $Effect:ident ($Params:ty) -> $Result:ty,
            errors [$($Err:ident),* $(,)?];
        )*
    ) => {
        methods!(@common $(#[$meta])* enum $Enum; table $TABLE;
            $( $(#[doc = $doc])* $Variant = $name $Effect ($Params) -> $Result, errors [$($Err),*]; )*);
    };
    (@common
        $(#[$meta:meta])* enum $Enum:ident; table $TABLE:ident;
        $(
            $(#[doc = $doc:literal])*
            $Variant:ident = $name:literal $Effect:ident ($Params:ty) -> $Result:ty, errors [$($Err:ident),*];
        )*
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone)]
        pub enum $Enum {
            $( $(#[doc = $doc])* $Variant($Params), )*
        }

        pub const $TABLE: &[$crate::table::MethodSpec] = &[
            $( $crate::table::MethodSpec {
                name: $name,
                doc: concat!($($doc, "\n",)* ""),
                errors: &[$(idea_application::ErrorCode::$Err),*],
                effect: $crate::table::Effect::$Effect,
            }, )*
        ];

        impl $Enum {
            /// Decodes a call by its method name, then its params.
            ///
            /// # Errors
            /// An unknown method, or params that do not fit it.
            pub fn decode(
                method: &str,
                params: Option<serde_json::Value>,
            ) -> Result<Self, $crate::table::DecodeError> {
                match method {
                    $( $name => $crate::table::decode_params::<$Params>(method, params).map(Self::$Variant), )*
                    _ => Err($crate::table::DecodeError::UnknownMethod(method.to_owned())),
                }
            }

            /// The wire name.
            pub fn method(&self) -> &'static str {
                match self {
                    $( Self::$Variant(_) => $name, )*
                }
            }

            /// What it does to the project's state (see [`crate::table::Effect`]).
            pub fn effect(&self) -> $crate::table::Effect {
                match self {
                    $( Self::$Variant(_) => $crate::table::Effect::$Effect, )*
                }
            }

            #[cfg(feature = "ts")]
            pub(crate) fn ts_entries(
                cfg: &ts_rs::Config,
                imports: &mut $crate::ts::Imports,
            ) -> Vec<String> {
                vec![ $( $crate::ts::entry::<$Params, $Result>(
                    cfg, imports, $name, &[$(idea_application::ErrorCode::$Err),*],
                ), )* ]
            }
        }
    };
}
