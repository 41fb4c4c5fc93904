//! One connection: the socket, the frames it reads, the calls it waits for.

use super::*;

pub(crate) type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

pub(crate) enum Incoming {
    Answer(Value),
    /// The server closed the connection: its close code, and why.
    Closed(Option<u16>, String),
    Stray(String),
}

pub(crate) async fn connect(port: u16) -> Ws {
    let url = format!("ws://127.0.0.1:{port}/ws?token={TOKEN}");
    tokio_tungstenite::connect_async(url).await.unwrap().0
}

pub(crate) type Dialled = (
    SplitSink<Ws, Message>,
    mpsc::UnboundedReceiver<Incoming>,
    Arc<Mutex<Acks>>,
    tokio::task::JoinHandle<()>,
);

/// A connection: where to send, what the reader passes on, output owed, the reader.
pub(crate) async fn dial(port: u16, pool: &Arc<Mutex<Pool>>) -> Dialled {
    let (sink, stream) = connect(port).await.split();
    let (tx, answers) = mpsc::unbounded_channel();
    let acks = Arc::new(Mutex::new(Acks::new()));
    let reader = tokio::spawn(read_frames(stream, tx, Arc::clone(pool), Arc::clone(&acks)));
    (sink, answers, acks, reader)
}

/// Reads every frame: answers go to the connection's loop, events feed the pool, output is
/// counted to be acknowledged.
pub(crate) async fn read_frames(
    mut stream: SplitStream<Ws>,
    answers: mpsc::UnboundedSender<Incoming>,
    pool: Arc<Mutex<Pool>>,
    acks: Arc<Mutex<Acks>>,
) {
    let why = loop {
        let Some(message) = stream.next().await else {
            break Incoming::Closed(None, "the stream ended".into());
        };
        match message {
            Ok(Message::Text(text)) => match serde_json::from_str::<Value>(text.as_str()) {
                Ok(value) if value.get("id").is_some() => {
                    let _ = answers.send(Incoming::Answer(value));
                }
                Ok(value) if value["method"] == "event" => lock(&pool).event(&value["params"]),
                _ => {
                    let _ = answers.send(Incoming::Stray(excerpt(text.as_str())));
                }
            },
            Ok(Message::Binary(bytes)) => {
                let Some((head, payload)) = bytes.split_first_chunk::<16>() else {
                    let _ = answers.send(Incoming::Stray("a binary frame under 16 bytes".into()));
                    continue;
                };
                let session = uuid::Uuid::from_bytes(*head).to_string();
                *lock(&acks).entry(session).or_default() += payload.len() as u64;
            }
            Ok(Message::Close(frame)) => {
                break match frame {
                    Some(frame) => {
                        Incoming::Closed(Some(frame.code.into()), frame.reason.to_string())
                    }
                    None => Incoming::Closed(None, "a close frame without a code".into()),
                };
            }
            Ok(_) => {}
            Err(e) => break Incoming::Closed(None, e.to_string()),
        }
    };
    let _ = answers.send(why);
}

/// A call waiting for its answer.
pub(crate) struct Pending {
    pub(crate) label: String,
    pub(crate) sent: Instant,
    /// A call that changes state: it waits for the connection's earlier ones to take effect.
    pub(crate) write: bool,
    pub(crate) frame: String,
    pub(crate) learn: Option<(String, Value)>,
}

pub(crate) struct Connection {
    pub(crate) index: u64,
    pub(crate) port: u16,
    pub(crate) sink: SplitSink<Ws, Message>,
    pub(crate) answers: mpsc::UnboundedReceiver<Incoming>,
    pub(crate) reader: tokio::task::JoinHandle<()>,
    pub(crate) pending: HashMap<String, VecDeque<Pending>>,
    pub(crate) pool: Arc<Mutex<Pool>>,
    pub(crate) acks: Arc<Mutex<Acks>>,
    pub(crate) stats: Arc<Mutex<Stats>>,
    pub(crate) declared: Vec<&'static str>,
    /// When the connection's last write was answered (or it was dialled): a write's deadline
    /// runs from this or from its sending, whichever is later.
    pub(crate) line_moved: Instant,
    /// Set once the server closed this connection for an undocumented reason.
    pub(crate) broken: bool,
}
