//! A trace read as it streams: a JSON or JSON Lines file, read a piece at
//! a time and never held whole. The file is read in blocks, each cut
//! between two regions (after a line break in JSON Lines; in JSON, just
//! before a region that follows a comma and a line break, as a file
//! written a region a line, or pretty-printed, has them). Every core
//! reads pieces: a task reads the next one from the file, leaves the one
//! after it to another task, and reads its piece into regions on the core
//! it was just read on, with the readers the whole file would use
//! ([`super::json::piece`] and [`super::jsonl`]); the caller takes the
//! regions in order. A piece's
//! text is dropped, and its buffer read into again, once its regions are
//! taken: memory holds the pieces in flight and what the caller keeps.
//!
//! A file that does not read so (anything malformed, a cut that was not
//! between two regions after all, a document with keys after `regions`
//! across pieces) is left to the reader of whole files, which reads it as
//! every other input is read and says exactly what is wrong, if anything
//! is: a streamed trace is the trace that reading it whole gives.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};

use crate::buffer::document::{InputFormat, RawRegion};
use crate::buffer::json::{self, PieceEnd, Written};
use crate::buffer::trace::{self, Plain, Region};
use crate::source::{line_starts_in, Access, OnDisk, SourceFile, Span};

mod reader;
#[cfg(test)]
mod tests;

#[cfg(test)]
use reader::cut;
use reader::Reader;

/// Bytes read at a time; a piece is a block cut between two regions.
const BLOCK: usize = 1 << 18;

/// Files from this size are streamed. A smaller one is read whole: what
/// leaving it on disk would save is small, and a report on a file in
/// memory is drawn faster than one read back.
const STREAM_FROM: u64 = 8 << 20;

/// A piece cut from the file: its bytes, from `base` in the text.
struct Block {
    bytes: Vec<u8>,
    base: usize,
    first: bool,
    last: bool,
}

/// A piece as the caller's `map` sees it: its text, from `base` in the
/// file's text, and the regions read from it, their spans in the file.
pub(crate) struct Piece {
    text: Arc<SourceFile>,
    base: usize,
}

impl Piece {
    /// What is written at `span` (of the file) in this piece.
    pub(crate) fn written(&self, span: &Span) -> &str {
        let text = self.text.text();
        text.get(span.start.saturating_sub(self.base)..span.end.saturating_sub(self.base))
            .unwrap_or_default()
    }
}

/// A region of a streamed trace: typed in full, or, as most are, a plain
/// narrative region ([`Plain`]). A full region is boxed: the lists of a
/// piece's regions hold plain ones at their own size.
pub(crate) enum Typed {
    Full(Box<Region>),
    Plain(Plain),
}

/// A piece read into regions, and what `map` made of them.
struct Parsed<T> {
    piece: Piece,
    regions: Vec<Typed>,
    mapped: T,
    end: Option<PieceEnd>,
    version: Option<String>,
    last: bool,
}

/// A file to be read as it streams.
pub struct Streaming {
    name: String,
    file: File,
    /// Where the text starts, after a byte-order mark.
    start: u64,
    len: usize,
    format: InputFormat,
    /// The file, its text left on disk: what every region's spans point into.
    source: Arc<SourceFile>,
    /// Bytes read at a time ([`BLOCK`]; tests cut many pieces of a small file).
    block: usize,
}

/// The file is not streamed: read it whole, as every other input.
#[derive(Debug)]
pub struct ReadWhole;

impl Streaming {
    /// `path`, to be read as it streams in `format`: a regular file within
    /// the size limit that starts as UTF-8 text. `None` for anything else
    /// (standard input, another kind of file, a refusal), which the reader
    /// of whole files reads or refuses with its own words.
    pub fn open(path: &Path, format: InputFormat, access: &Access) -> Option<Streaming> {
        Streaming::open_from(path, format, access, STREAM_FROM)
    }

    /// [`Streaming::open`] for a file of any size (tests stream small ones).
    #[cfg(any(test, feature = "testing"))]
    pub fn open_small(path: &Path, format: InputFormat, access: &Access) -> Option<Streaming> {
        Streaming::open_from(path, format, access, 0)
    }

    /// [`Streaming::open`], streaming files of `from` bytes or more.
    fn open_from(
        path: &Path,
        format: InputFormat,
        access: &Access,
        from: u64,
    ) -> Option<Streaming> {
        if !crate::source::DISK_SUPPORTED || path.as_os_str() == "-" {
            return None;
        }
        let format = match format {
            InputFormat::Json | InputFormat::JsonLines => format,
            InputFormat::Yaml => return None,
        };
        let (file, metadata) = crate::source::read::open_regular(path, access)?;
        if metadata.len() < from {
            return None;
        }
        let size = usize::try_from(metadata.len()).ok()?;
        let mut head = vec![0; size.min(64)];
        crate::source::read_at(&file, &mut head, 0).ok()?;
        if crate::source::read::utf16(&head) {
            return None;
        }
        let start = if head.starts_with(&[0xEF, 0xBB, 0xBF]) {
            3
        } else {
            0
        };
        let name = path.display().to_string();
        let disk = OnDisk::new(file.try_clone().ok()?, start as u64, size - start);
        Some(Streaming {
            source: SourceFile::on_disk(name.clone(), disk),
            name,
            file,
            start: start as u64,
            len: size - start,
            format,
            block: BLOCK,
        })
    }

    /// Reads `block` bytes at a time instead of [`BLOCK`].
    #[cfg(any(test, feature = "testing"))]
    pub fn with_block(self, block: usize) -> Streaming {
        Streaming { block, ..self }
    }

    /// The file, its text left on disk: where every region's spans point.
    pub(crate) fn source(&self) -> &Arc<SourceFile> {
        &self.source
    }

    /// The text's length in bytes.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Reads every region, in order: `map` is asked about each piece's
    /// regions on the thread that read them, and `each` is handed them
    /// with what `map` said, in file order, on one thread at a time.
    ///
    /// Tasks of the thread pool read the file, a piece each: a task reads
    /// the next piece, has the one after it read by another task, and reads
    /// its own into regions while the bytes are in its core's cache; the
    /// task that finishes the piece next in order hands it and any after it
    /// already read, so no core waits for a batch. Called from a task of
    /// the thread pool, the file is read whole instead: tasks that wait for
    /// a buffer or for the file would wait on the pool they are in.
    pub(crate) fn regions<T: Send>(
        self,
        map: impl Fn(&Piece, &[Typed]) -> T + Sync,
        each: impl FnMut(&Piece, &[Typed], T) + Send,
    ) -> Result<(), ReadWhole> {
        if rayon::current_thread_index().is_some() {
            return Err(ReadWhole);
        }
        let Streaming {
            name,
            mut file,
            start,
            len,
            format,
            source,
            block,
        } = self;
        {
            use std::io::Seek;
            file.seek(std::io::SeekFrom::Start(start))
                .map_err(|_| ReadWhole)?;
        }
        // The buffers in flight are all there are: a task waits for one.
        let (spare, spares) = channel();
        for _ in 0..IN_FLIGHT {
            let _ = spare.send(Vec::new());
        }
        let order = Order {
            waiting: Mutex::new(Waiting {
                pieces: BTreeMap::new(),
                next: 0,
            }),
            hander: Mutex::new((each, Handed::default())),
            failed: AtomicBool::new(false),
            lists: Mutex::new(Vec::new()),
            spare,
        };
        let reading = Mutex::new(Reading {
            reader: Reader {
                file: file.take(len as u64),
                len,
                format,
                block,
                carry: Vec::new(),
                base: 0,
                read: 0,
                first: true,
                starts: vec![0],
                done: false,
            },
            spares,
            number: 0,
        });
        let tasks = Tasks {
            name: name.as_str(),
            format,
            map: &map,
            order: &order,
            reading: &reading,
        };
        rayon::in_place_scope(|scope| scope.spawn(move |scope| tasks.run(scope)));
        let Order {
            waiting,
            hander,
            failed,
            ..
        } = order;
        let reading = reading.into_inner().map_err(|_| ReadWhole)?;
        let hander = hander.lock().map_err(|_| ReadWhole)?;
        let handed = &hander.1;
        let waiting = waiting.lock().map_err(|_| ReadWhole)?;
        match failed.load(Ordering::Acquire) {
            false
                if reading.reader.done
                    && handed.finished
                    && handed.regions > 0
                    && waiting.pieces.is_empty() =>
            {
                source.found_lines(reading.reader.starts);
                Ok(())
            }
            // No region at all: what reading it whole says (an empty file, an empty list).
            _ => Err(ReadWhole),
        }
    }
}

/// What every task of a streaming shares: each reads the next piece, has
/// the one after it read by another task, then reads its piece into
/// regions (on the core whose cache the piece was just read into) and
/// hands what is next in order.
struct Tasks<'t, M, T, F> {
    name: &'t str,
    format: InputFormat,
    map: &'t M,
    order: &'t Order<T, F>,
    reading: &'t Mutex<Reading<std::io::Take<File>>>,
}

impl<M, T, F> Clone for Tasks<'_, M, T, F> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<M, T, F> Copy for Tasks<'_, M, T, F> {}

impl<'t, M, T, F> Tasks<'t, M, T, F>
where
    M: Fn(&Piece, &[Typed]) -> T + Sync,
    T: Send,
    F: FnMut(&Piece, &[Typed], T) + Send,
{
    fn run(self, scope: &rayon::Scope<'t>) {
        // Were a task to panic, no other may wait for its buffer: the
        // panic then reaches the caller.
        let _unwinding = FailOnUnwind(self.order);
        let Some((n, block)) = self.read() else {
            return;
        };
        if !block.last {
            scope.spawn(move |scope| self.run(scope));
        }
        let parsed = parse(self.name, self.format, block, self.map, &self.order.lists);
        self.order.arrived(n, parsed);
    }

    /// The next piece and its number; `None` at the end, or once the
    /// reading failed.
    fn read(&self) -> Option<(usize, Block)> {
        let order = self.order;
        let Ok(mut reading) = self.reading.lock() else {
            order.fail();
            return None;
        };
        let reading = &mut *reading;
        if reading.reader.done || order.failed.load(Ordering::Acquire) {
            return None;
        }
        // With every buffer taken, this waits holding the file, and the
        // other tasks only read their pieces into regions and hand them:
        // the piece next in order is always among those being read (it was
        // cut before the ones that wait for it), and once it is handed its
        // buffer comes back here.
        let spare = reading.spares.recv().ok()?;
        if order.failed.load(Ordering::Acquire) {
            return None;
        }
        match reading.reader.next(spare) {
            Ok(block) => {
                let n = reading.number;
                reading.number += 1;
                Some((n, block))
            }
            Err(ReadWhole) => {
                order.fail();
                None
            }
        }
    }
}

/// The file as it is read, and the buffers to read it into.
struct Reading<R> {
    reader: Reader<R>,
    spares: Receiver<Vec<u8>>,
    /// The number of the next piece.
    number: usize,
}

/// Pieces read ahead of the one handed (each holds a buffer of [`BLOCK`]).
const IN_FLIGHT: usize = 8;

/// The pieces read, handed in order whichever core read them.
struct Order<T, F> {
    waiting: Mutex<Waiting<T>>,
    /// The caller's `each`, and what it was handed: whoever holds it hands.
    hander: Mutex<(F, Handed)>,
    /// A piece did not read, or did not follow the one before: the file is
    /// read whole.
    failed: AtomicBool,
    /// The lists regions are read into, emptied and read into again.
    lists: Mutex<Vec<Vec<Typed>>>,
    /// Buffers back to the tasks that read the file.
    spare: Sender<Vec<u8>>,
}

/// Fails the reading if dropped while its task unwinds.
struct FailOnUnwind<'o, T, F: FnMut(&Piece, &[Typed], T)>(&'o Order<T, F>);

impl<T, F: FnMut(&Piece, &[Typed], T)> Drop for FailOnUnwind<'_, T, F> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.fail();
        }
    }
}

/// Pieces read before the one next in order.
struct Waiting<T> {
    pieces: BTreeMap<usize, Parsed<T>>,
    /// The number of the piece to hand next.
    next: usize,
}

impl<T, F: FnMut(&Piece, &[Typed], T)> Order<T, F> {
    /// Piece `n` is read: it waits for the ones before it, and whoever is
    /// free hands every piece that is next in order.
    fn arrived(&self, n: usize, parsed: Result<Parsed<T>, ReadWhole>) {
        let Ok(parsed) = parsed else {
            return self.fail();
        };
        match self.waiting.lock() {
            Ok(mut waiting) => {
                waiting.pieces.insert(n, parsed);
            }
            Err(_) => return self.fail(),
        }
        // A piece that arrives while another task hands is handed by it:
        // that task looks again once it lets go.
        loop {
            let Ok(mut hander) = self.hander.try_lock() else {
                return;
            };
            let (each, handed) = &mut *hander;
            while let Some(parsed) = self.take_next() {
                if hand(parsed, handed, each, &self.spare, &self.lists).is_err() {
                    drop(hander);
                    return self.fail();
                }
            }
            drop(hander);
            if !self.next_is_waiting() {
                return;
            }
        }
    }

    fn take_next(&self) -> Option<Parsed<T>> {
        let mut waiting = self.waiting.lock().ok()?;
        let next = waiting.next;
        let parsed = waiting.pieces.remove(&next)?;
        waiting.next += 1;
        Some(parsed)
    }

    fn next_is_waiting(&self) -> bool {
        (self.waiting.lock()).is_ok_and(|waiting| waiting.pieces.contains_key(&waiting.next))
    }

    /// Stops the reading, and wakes a task that waits for a buffer.
    fn fail(&self) {
        self.failed.store(true, Ordering::Release);
        let _ = self.spare.send(Vec::new());
    }
}

/// What the pieces handed so far add up to.
#[derive(Default)]
struct Handed {
    regions: usize,
    /// A JSON piece ended the document, or the last piece was handed.
    finished: bool,
    version: Option<String>,
}

/// Hands a piece's regions to `each`, numbered in the file, once the
/// pieces before them say the document goes on; the piece's buffer goes
/// back to the tasks that read the file.
fn hand<T>(
    parsed: Parsed<T>,
    order: &mut Handed,
    each: &mut impl FnMut(&Piece, &[Typed], T),
    spare: &Sender<Vec<u8>>,
    lists: &Mutex<Vec<Vec<Typed>>>,
) -> Result<(), ReadWhole> {
    let Parsed {
        piece,
        mut regions,
        mapped,
        end,
        version,
        last,
    } = parsed;
    if order.finished {
        return Err(ReadWhole);
    }
    if let Some(version) = version {
        if order.version.replace(version).is_some() {
            return Err(ReadWhole);
        }
    }
    order.finished = match end {
        // JSON Lines: every line stands alone.
        None => last,
        Some(PieceEnd::Between) if !last => false,
        Some(PieceEnd::Finished) if last => match &order.version {
            Some(version) if version.trim() == "1" => true,
            _ => return Err(ReadWhole),
        },
        Some(_) => return Err(ReadWhole),
    };
    for region in &mut regions {
        match region {
            Typed::Full(region) => region.place.index += order.regions,
            Typed::Plain(plain) => plain.index += order.regions,
        }
    }
    order.regions += regions.len();
    each(&piece, &regions, mapped);
    regions.clear();
    if let Ok(mut lists) = lists.lock() {
        lists.push(regions);
    }
    // Nothing holds the piece's text now: its buffer is read into again
    // (or, held still, another takes its place in flight).
    let buffer = Arc::try_unwrap(piece.text)
        .map_or_else(|_| Vec::new(), |text| text.into_text().into_bytes());
    let _ = spare.send(buffer);
    Ok(())
}

/// Reads a piece into regions, their spans moved to where the piece is in
/// the file, and asks `map` about them.
fn parse<T>(
    name: &str,
    format: InputFormat,
    block: Block,
    map: &impl Fn(&Piece, &[Typed]) -> T,
    lists: &Mutex<Vec<Vec<Typed>>>,
) -> Result<Parsed<T>, ReadWhole> {
    let text = String::from_utf8(block.bytes).map_err(|_| ReadWhole)?;
    let file = SourceFile::new(name, text);
    let mut regions = lists
        .lock()
        .ok()
        .and_then(|mut lists| lists.pop())
        .unwrap_or_default();
    // A plain narrative region is typed as it is; any other in full.
    let mut raw = RawRegion::empty();
    let mut sink = |written: Written| {
        match json::plain(&file, &written) {
            Some(plain) => regions.push(Typed::Plain(plain)),
            None => {
                written.typed(&file, &mut raw)?;
                regions.push(Typed::Full(Box::new(trace::region(&file, &mut raw)?)));
            }
        }
        Ok(())
    };
    let (end, version) = match format {
        InputFormat::Json => {
            let piece = json::piece(&file, block.first, &mut sink).ok_or(ReadWhole)?;
            (Some(piece.end), piece.version)
        }
        _ => {
            super::jsonl::lines(&file, 0..file.text().len(), 0, &mut sink)
                .map_err(|_| ReadWhole)?;
            (None, None)
        }
    };
    for region in &mut regions {
        match region {
            Typed::Full(region) => region.moved(block.base),
            Typed::Plain(plain) => plain.moved(block.base),
        }
    }
    let piece = Piece {
        text: file,
        base: block.base,
    };
    let mapped = map(&piece, &regions);
    Ok(Parsed {
        piece,
        regions,
        mapped,
        end,
        version,
        last: block.last,
    })
}
