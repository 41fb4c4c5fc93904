//! Mutating params and building well-formed calls.

use super::*;

impl Gen {
    /// Awkward text: pieces of [`PIECES`], random letters, or now and then a huge string.
    pub(crate) fn weird(&mut self) -> String {
        let rng = &mut self.rng;
        match rng.below(100) {
            0..=1 => {
                let size = [4 << 10, 64 << 10, 1 << 20][rng.below(3)];
                let piece = rng.pick(PIECES).unwrap_or("x");
                let unit = if piece.is_empty() { "x" } else { piece };
                unit.repeat(size / unit.len().max(1) + 1)
            }
            2..=20 => (0..1 + rng.below(40))
                .map(|_| char::from(b'a' + rng.below(26) as u8))
                .collect(),
            _ => (0..1 + rng.below(6))
                .map(|_| rng.pick(PIECES).unwrap_or(""))
                .collect(),
        }
    }

    pub(crate) fn edge_number(&mut self) -> Value {
        match self.rng.below(12) {
            0 => json!(0),
            1 => json!(-1),
            2 => json!(65535),
            3 => json!(65536),
            4 => json!(u64::MAX),
            5 => json!(i64::MIN),
            6 => json!(1e308),
            7 => json!(-0.0),
            8 => json!(1.5),
            9 => json!("24"),
            10 => json!(4_294_967_296_u64),
            _ => json!(1),
        }
    }

    /// `depth` levels of arrays or objects around a number.
    pub(crate) fn deep(&mut self, depth: usize) -> Value {
        let object = self.rng.percent(50);
        (0..depth).fold(json!(0), |inner, _| {
            if object {
                json!({ "x": inner })
            } else {
                json!([inner])
            }
        })
    }

    /// A value of any type.
    pub(crate) fn junk(&mut self, depth: u32) -> Value {
        let choices = if depth > 2 { 9 } else { 12 };
        match self.rng.below(choices) {
            0 => Value::Null,
            1 => Value::from(self.rng.percent(50)),
            2 => Value::from(self.rng.below(100) as i64 - 5),
            3 => self.edge_number(),
            4 => Value::from(self.rng.next_u64() as f64 / 7.0),
            5..=6 => Value::from(self.weird()),
            7 => Value::from(self.rng.uuid()),
            8 => Value::from(""),
            9 => Value::from(
                (0..self.rng.below(4))
                    .map(|_| self.junk(depth + 1))
                    .collect::<Vec<_>>(),
            ),
            10 => {
                let mut object = Map::new();
                for _ in 0..self.rng.below(4) {
                    let key = self.weird();
                    object.insert(key, self.junk(depth + 1));
                }
                Value::Object(object)
            }
            _ => {
                let levels = 1 + self.rng.below(300);
                self.deep(levels)
            }
        }
    }

    /// Changes one thing about `params`.
    pub(crate) fn mutate(&mut self, params: &mut Option<Value>, pool: &Pool) {
        let keys: Vec<String> = match params {
            Some(Value::Object(object)) => object.keys().cloned().collect(),
            _ => Vec::new(),
        };
        let key = self.rng.pick(&keys);
        let roll = self.rng.below(10);
        let Some(Value::Object(object)) = params else {
            // Not an object: make it one of anything.
            *params = if self.rng.percent(20) {
                None
            } else {
                Some(self.junk(0))
            };
            return;
        };
        match (roll, key) {
            (0, Some(key)) => {
                object.remove(&key);
            }
            (1, _) => {
                let key = match self.rng.percent(50) {
                    true => self.rng.pick(ALL_FIELDS).unwrap_or("x").to_owned(),
                    false => self.weird(),
                };
                let value = self.junk(0);
                object.insert(key, value);
            }
            (2, Some(key)) => {
                let value = self.junk(0);
                object.insert(key, value);
            }
            (3, Some(key)) => {
                // Another id: random, respelt, or of another kind.
                let value = match (object.get(&key).and_then(Value::as_str), self.rng.below(3)) {
                    (Some(id), 0) => {
                        let id = id.to_owned();
                        respell(&mut self.rng, &id)
                    }
                    (_, 1) => {
                        let known: Vec<String> = pool
                            .layouts
                            .iter()
                            .chain(&pool.agents)
                            .chain(&pool.running)
                            .chain(pool.leaves.iter().map(|(_, n)| n))
                            .cloned()
                            .collect();
                        Value::from(self.rng.pick(&known).unwrap_or_else(|| self.rng.uuid()))
                    }
                    _ => Value::from(self.rng.uuid()),
                };
                object.insert(key, value);
            }
            (4, Some(key)) => {
                let value = Value::from(self.weird());
                object.insert(key, value);
            }
            (5, Some(key)) => {
                let value = self.edge_number();
                object.insert(key, value);
            }
            (6, _) => {
                *params = match self.rng.below(5) {
                    0 => None,
                    1 => Some(Value::Null),
                    2 => Some(json!([params.take()])),
                    _ => Some(self.junk(0)),
                };
            }
            (7, Some(key)) => {
                let levels = 1 + self.rng.below(300);
                let value = self.deep(levels);
                object.insert(key, value);
            }
            (8, Some(key)) if key == "ratios" => {
                let ratios: Vec<Value> = (0..self.rng.below(6))
                    .map(|_| match self.rng.below(4) {
                        0 => json!(0.0),
                        1 => json!(-0.5),
                        2 => json!(1e300),
                        _ => json!(self.rng.below(100) as f64 / 100.0),
                    })
                    .collect();
                object.insert(key, Value::from(ratios));
            }
            _ => {
                // Everything there twice: the same fields with `null` over all of them.
                for value in object.values_mut() {
                    if self.rng.percent(30) {
                        *value = Value::Null;
                    }
                }
            }
        }
    }

    /// The `id` of the next call: mostly a number, sometimes a string, a float, a huge number,
    /// `null`, or absent (a notification).
    pub(crate) fn id(&mut self) -> Option<Value> {
        self.next_id += 1;
        let n = self.next_id * CONNECTIONS + self.connection;
        Some(match self.rng.below(40) {
            0 => return None,
            1 => Value::Null,
            2..=5 => Value::from(format!("c{n}-{}", self.weird())),
            6 => Value::from(n as f64 + 0.5),
            7 => Value::from(-(n as i64)),
            8 => Value::from(u64::MAX - n),
            _ => Value::from(n),
        })
    }

    pub(crate) fn call_text(id: Option<Value>, method: &str, params: Option<Value>) -> String {
        let mut call = Map::new();
        call.insert("jsonrpc".into(), Value::from("2.0"));
        if let Some(id) = id {
            call.insert("id".into(), id);
        }
        call.insert("method".into(), Value::from(method));
        if let Some(params) = params {
            call.insert("params".into(), params);
        }
        Value::Object(call).to_string()
    }

    /// A call to `method`: its valid skeleton, mutated now and then.
    pub(crate) fn call(&mut self, method: &str, pool: &Pool, mutations: usize) -> Out {
        let mut params = self.skeleton(method, pool);
        for _ in 0..mutations {
            self.mutate(&mut params, pool);
        }
        // Whatever is typed into a terminal is made harmless (see `harmless`).
        if let Some(Value::Object(object)) = &mut params
            && let Some(Value::String(data)) = object.get_mut("data")
        {
            *data = if method == "writeTerminal" && self.rng.percent(8) {
                command(&mut self.rng)
            } else {
                harmless(data)
            };
        }
        let learn = params.clone().map(|p| (method.to_owned(), p));
        let id = self.id();
        Out::Text {
            text: Self::call_text(id, method, params),
            label: if self.methods.contains(&method) {
                method.to_owned()
            } else {
                "unknownMethod".to_owned()
            },
            learn: learn.or_else(|| Some((method.to_owned(), Value::Null))),
        }
    }
}
