//! The presentation path's CPU cost per frame, on real window systems: what the HUD adds to a
//! frame when a presentation source is on (`frame_committing` at the frame's end, `poll` at the
//! next frame's HUD draw), with the app's own present and the server's answer left out.
//!
//! - X11: Xvfb, a window presenting a pixmap per frame (Present), read over the source's own
//!   connection.
//! - Wayland: weston's headless backend, a surface of this bench's own connection (the source
//!   wraps its `wl_display` as it wraps an app's), a commit per frame.
//!
//! Prints mean and median µs per frame for each, and the CPU the X11 source's reader thread
//! spends per report (off the frame); for Wayland, frames read every frame and frames read
//! every fourth frame, as egui-hud reads, in alternating blocks (compare their means). A missing
//! server prints why and skips it.
//! `cargo bench -p profiler-core --bench presentation_cost`.
#![cfg_attr(
    all(unix, not(target_vendor = "apple"), not(target_os = "android")),
    expect(
        clippy::expect_used,
        clippy::print_stdout,
        reason = "a bench binary: a failed step stops it, and the figures are its output"
    )
)]

#[cfg(all(unix, not(target_vendor = "apple"), not(target_os = "android")))]
#[path = "../tests/support/x_server.rs"]
mod x_server;

#[cfg(all(unix, not(target_vendor = "apple"), not(target_os = "android")))]
mod linux {
    use std::os::unix::fs::DirBuilderExt as _;
    use std::ptr::NonNull;
    use std::time::{Duration, Instant};

    use profiler_core::presentation::{CommittedFrame, PresentationSource};
    use raw_window_handle::{
        RawDisplayHandle, RawWindowHandle, WaylandDisplayHandle, WaylandWindowHandle,
    };
    use std::os::fd::AsFd as _;

    use wayland_client::protocol::{
        wl_buffer, wl_callback, wl_compositor, wl_registry, wl_shm, wl_shm_pool, wl_surface,
    };
    use wayland_client::{Connection, Dispatch, Proxy as _, QueueHandle};
    use wayland_protocols::xdg::shell::client::{xdg_surface, xdg_toplevel, xdg_wm_base};
    use x11rb::connection::Connection as _;
    use x11rb::protocol::present::ConnectionExt as _;
    use x11rb::protocol::xproto::{ConnectionExt as _, CreateWindowAux, WindowClass};
    use x11rb::wrapper::ConnectionExt as _;

    use crate::x_server::{XServer, find_in_path};

    /// Frames at the display's pace, each read once its report can have come: 5 s per window
    /// system.
    const FRAMES: u64 = 300;

    /// Mean and median of `samples`, µs.
    fn report(what: &str, samples: &mut [Duration], reports: usize) {
        samples.sort_unstable();
        let mean = samples.iter().sum::<Duration>() / u32::try_from(samples.len()).expect("few");
        let median = samples[samples.len() / 2];
        println!(
            "{what:<44} mean {:>6.2} µs, median {:>6.2} µs per frame ({} frames, {reports} reports)",
            mean.as_secs_f64() * 1e6,
            median.as_secs_f64() * 1e6,
            samples.len()
        );
    }

    fn frame(sequence: u64) -> CommittedFrame {
        CommittedFrame {
            sequence,
            committed_at: Instant::now(),
            counted: true,
            back_to_back: true,
        }
    }

    pub(crate) fn x11() {
        let Some(xvfb) = find_in_path("Xvfb") else {
            return println!("X11: skipped, Xvfb is not installed");
        };
        let server = XServer::start(&xvfb, &["-screen", "0", "640x480x24", "-nolisten", "tcp"])
            .expect("Xvfb starts");
        let (app, screen_number) = x11rb::connect(Some(&server.display_name)).expect("connects");
        let screen = &app.setup().roots[screen_number];
        let (window, pixmap) = (
            app.generate_id().expect("id"),
            app.generate_id().expect("id"),
        );
        app.create_window(
            x11rb::COPY_DEPTH_FROM_PARENT,
            window,
            screen.root,
            0,
            0,
            64,
            64,
            0,
            WindowClass::INPUT_OUTPUT,
            x11rb::COPY_FROM_PARENT,
            &CreateWindowAux::new(),
        )
        .expect("window");
        app.map_window(window).expect("map");
        app.create_pixmap(screen.root_depth, pixmap, window, 64, 64)
            .expect("pixmap");
        app.sync().expect("made");
        let mut source = PresentationSource::for_x11_window(Some(&server.display_name), window)
            .expect("the X11 source");
        let mut samples = Vec::with_capacity(usize::try_from(FRAMES).expect("small"));
        let mut polls = Vec::with_capacity(samples.capacity());
        let mut empty_polls = Vec::with_capacity(samples.capacity());
        let mut reports = 0_usize;
        let reader_before = reader_cpu_time();
        for sequence in 1..=FRAMES {
            let start = Instant::now();
            source.frame_committing(frame(sequence), |_| {});
            let mut cost = start.elapsed();
            let serial = u32::try_from(sequence).expect("small");
            app.present_pixmap(window, pixmap, serial, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, &[])
                .expect("present");
            app.sync().expect("presented");
            // The next frame's draw comes a refresh later (Xvfb's fake vblank is 60 Hz), when
            // the completion has arrived.
            // Spun, not slept: an app drawing at the display's pace is busy in its own frame
            // when the HUD polls, and a CPU woken from sleep makes any first call slow.
            let until = Instant::now() + Duration::from_micros(16_667);
            while Instant::now() < until {
                std::hint::spin_loop();
            }
            let start = Instant::now();
            source.poll(|_| reports += 1).expect("reads");
            let poll = start.elapsed();
            polls.push(poll);
            // Control: the same poll again at once (nothing to read), and a bare syscall just
            // after the sleep would have cost the same cold start.
            let start = Instant::now();
            source.poll(|_| reports += 1).expect("reads");
            empty_polls.push(start.elapsed());
            cost += poll;
            samples.push(cost);
        }
        let reader = reader_cpu_time()
            .zip(reader_before)
            .map(|(after, before)| after.saturating_sub(before));
        report("X11 Present (Xvfb), commit + poll", &mut samples, reports);
        report("  of which the poll", &mut polls, reports);
        report(
            "  a second poll at once (nothing to read)",
            &mut empty_polls,
            reports,
        );
        match reader {
            Some(reader) => println!(
                "  the source's reader thread (off the frame): {:.2} µs of CPU per report",
                reader.as_secs_f64() * 1e6
                    / f64::from(u32::try_from(reports.max(1)).expect("a few hundred"))
            ),
            None => println!("  the source's reader thread: its CPU time cannot be read here"),
        }
    }

    /// CPU time the X11 source's reader thread has run, from the scheduler's statistics (ns,
    /// exact); `None` where they cannot be read.
    fn reader_cpu_time() -> Option<Duration> {
        std::fs::read_dir("/proc/self/task")
            .ok()?
            .flatten()
            .find(|task| {
                std::fs::read_to_string(task.path().join("comm"))
                    .is_ok_and(|name| name.trim_end() == "x11-present")
            })
            .and_then(|task| std::fs::read_to_string(task.path().join("schedstat")).ok())
            .and_then(|stat| stat.split_whitespace().next()?.parse().ok())
            .map(Duration::from_nanos)
    }

    /// egui-hud's `READ_EVERY_FRAMES`: it reads its presentation source every fourth frame.
    const READ_EVERY_FRAMES: u64 = 4;

    /// Frames in a row read one way before switching to the other: both ways see the same
    /// warm-up and drift (blocks alternate from the first frame).
    const BLOCK_FRAMES: u64 = 2 * READ_EVERY_FRAMES;

    /// The Wayland frames' costs, read every frame and every fourth (as egui-hud reads), in
    /// alternating blocks of [`BLOCK_FRAMES`].
    #[derive(Default)]
    struct WaylandCosts {
        every_frame: Vec<Duration>,
        polls: Vec<Duration>,
        reports: usize,
        in_turn: Vec<Duration>,
        polls_in_turn: Vec<Duration>,
        reports_in_turn: usize,
    }

    impl WaylandCosts {
        /// Whether frame `sequence` (from 1) is read in turn, every fourth frame.
        fn in_turn(sequence: u64) -> bool {
            (sequence - 1) / BLOCK_FRAMES % 2 == 1
        }

        /// Whether frame `sequence` reads the source.
        fn reads(sequence: u64) -> bool {
            !Self::in_turn(sequence) || sequence.is_multiple_of(READ_EVERY_FRAMES)
        }

        /// Frame `sequence`, whose request cost `request`, its read (if it reads) `poll`
        /// bringing `reports`.
        fn add(&mut self, sequence: u64, request: Duration, poll: Option<(Duration, usize)>) {
            let (frames, polls, reports) = if Self::in_turn(sequence) {
                (
                    &mut self.in_turn,
                    &mut self.polls_in_turn,
                    &mut self.reports_in_turn,
                )
            } else {
                (&mut self.every_frame, &mut self.polls, &mut self.reports)
            };
            frames.push(request + poll.map_or(Duration::ZERO, |(poll, _)| poll));
            polls.extend(poll.map(|(poll, _)| poll));
            *reports += poll.map_or(0, |(_, read)| read);
        }

        /// Prints both ways; per frame, the mean is the figure to compare (in turn, three
        /// frames in four make no read, so the median frame is one that only asked).
        fn report(mut self) {
            report(
                "Wayland presentation-time (weston), request + poll every frame",
                &mut self.every_frame,
                self.reports,
            );
            report("  of which the poll", &mut self.polls, self.reports);
            report(
                "  request + poll every fourth frame (egui-hud)",
                &mut self.in_turn,
                self.reports_in_turn,
            );
            report(
                "  of which a poll (four frames' reports)",
                &mut self.polls_in_turn,
                self.reports_in_turn,
            );
        }
    }

    /// The bench's own Wayland client: a mapped toplevel with one shm buffer.
    #[derive(Default)]
    struct App {
        compositor: Option<wl_compositor::WlCompositor>,
        shm: Option<wl_shm::WlShm>,
        wm_base: Option<xdg_wm_base::XdgWmBase>,
        configured: bool,
        frame_done: bool,
    }

    impl Dispatch<wl_registry::WlRegistry, ()> for App {
        fn event(
            state: &mut Self,
            registry: &wl_registry::WlRegistry,
            event: wl_registry::Event,
            (): &(),
            _: &Connection,
            handle: &QueueHandle<Self>,
        ) {
            if let wl_registry::Event::Global {
                name, interface, ..
            } = event
            {
                match interface.as_str() {
                    "wl_compositor" => state.compositor = Some(registry.bind(name, 4, handle, ())),
                    "wl_shm" => state.shm = Some(registry.bind(name, 1, handle, ())),
                    "xdg_wm_base" => state.wm_base = Some(registry.bind(name, 1, handle, ())),
                    _ => {}
                }
            }
        }
    }

    impl Dispatch<xdg_wm_base::XdgWmBase, ()> for App {
        fn event(
            _: &mut Self,
            wm_base: &xdg_wm_base::XdgWmBase,
            event: xdg_wm_base::Event,
            (): &(),
            _: &Connection,
            _: &QueueHandle<Self>,
        ) {
            if let xdg_wm_base::Event::Ping { serial } = event {
                wm_base.pong(serial);
            }
        }
    }

    impl Dispatch<xdg_surface::XdgSurface, ()> for App {
        fn event(
            state: &mut Self,
            surface: &xdg_surface::XdgSurface,
            event: xdg_surface::Event,
            (): &(),
            _: &Connection,
            _: &QueueHandle<Self>,
        ) {
            if let xdg_surface::Event::Configure { serial } = event {
                surface.ack_configure(serial);
                state.configured = true;
            }
        }
    }

    impl Dispatch<wl_callback::WlCallback, ()> for App {
        fn event(
            state: &mut Self,
            _: &wl_callback::WlCallback,
            event: wl_callback::Event,
            (): &(),
            _: &Connection,
            _: &QueueHandle<Self>,
        ) {
            if let wl_callback::Event::Done { .. } = event {
                state.frame_done = true;
            }
        }
    }

    /// Objects whose events the bench does not need.
    macro_rules! ignore_events {
        ($($interface:ty),*) => {$(
            impl Dispatch<$interface, ()> for App {
                fn event(
                    _: &mut Self,
                    _: &$interface,
                    _: <$interface as wayland_client::Proxy>::Event,
                    (): &(),
                    _: &Connection,
                    _: &QueueHandle<Self>,
                ) {
                }
            }
        )*};
    }
    ignore_events!(
        wl_compositor::WlCompositor,
        wl_surface::WlSurface,
        wl_shm::WlShm,
        wl_shm_pool::WlShmPool,
        wl_buffer::WlBuffer,
        xdg_toplevel::XdgToplevel
    );

    /// weston's headless backend in `runtime_dir`, and its socket once it is there.
    fn start_weston(
        weston: &std::path::Path,
        runtime_dir: &std::path::Path,
    ) -> (std::process::Child, std::path::PathBuf) {
        let child = std::process::Command::new(weston)
            .args([
                "--backend=headless-backend.so",
                "--idle-time=0",
                "--socket=bench",
            ])
            .env("XDG_RUNTIME_DIR", runtime_dir)
            .env_remove("WAYLAND_DISPLAY")
            .env_remove("DISPLAY")
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("weston starts");
        let socket = runtime_dir.join("bench");
        let deadline = Instant::now() + Duration::from_secs(30);
        while !socket.exists() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        (child, socket)
    }

    pub(crate) fn wayland() {
        let Some(weston) = find_in_path("weston") else {
            return println!("Wayland: skipped, weston is not installed");
        };
        let runtime_dir = std::env::temp_dir().join(format!(
            "egui-hud-presentation-bench-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&runtime_dir);
        std::fs::DirBuilder::new()
            .mode(0o700)
            .create(&runtime_dir)
            .expect("runtime dir");
        let (mut child, socket) = start_weston(&weston, &runtime_dir);
        let stream = std::os::unix::net::UnixStream::connect(&socket).expect("weston's socket");
        let connection = Connection::from_socket(stream).expect("a connection");
        let mut queue = connection.new_event_queue();
        let handle = queue.handle();
        let mut app = App::default();
        let _registry = connection.display().get_registry(&handle, ());
        queue.roundtrip(&mut app).expect("globals");
        let (Some(compositor), Some(shm), Some(wm_base)) =
            (app.compositor.clone(), app.shm.clone(), app.wm_base.clone())
        else {
            panic!("weston offers wl_compositor, wl_shm and xdg_wm_base");
        };
        let surface = compositor.create_surface(&handle, ());
        let xdg = wm_base.get_xdg_surface(&surface, &handle, ());
        let _toplevel = xdg.get_toplevel(&handle, ());
        surface.commit();
        while !app.configured {
            queue.blocking_dispatch(&mut app).expect("configured");
        }
        let (width, height) = (64_i32, 64_i32);
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(runtime_dir.join("buffer"))
            .expect("a buffer file");
        file.set_len(u64::try_from(width * height * 4).expect("small"))
            .expect("its size");
        let shm_pool = shm.create_pool(file.as_fd(), width * height * 4, &handle, ());
        let buffer = shm_pool.create_buffer(
            0,
            width,
            height,
            width * 4,
            wl_shm::Format::Xrgb8888,
            &handle,
            (),
        );
        let display =
            NonNull::new(connection.backend().display_ptr().cast()).expect("the display pointer");
        let surface_ptr = NonNull::new(surface.id().as_ptr().cast()).expect("the surface pointer");
        let mut source = PresentationSource::from_raw_handles(
            RawWindowHandle::Wayland(WaylandWindowHandle::new(surface_ptr)),
            RawDisplayHandle::Wayland(WaylandDisplayHandle::new(display)),
        )
        .expect("the Wayland source");
        let mut costs = WaylandCosts::default();
        for sequence in 1..=FRAMES {
            let start = Instant::now();
            source.frame_committing(frame(sequence), |_| {});
            let request = start.elapsed();
            // The app's frame: its buffer again, a frame callback, the commit.
            surface.attach(Some(&buffer), 0, 0);
            surface.damage_buffer(0, 0, width, height);
            let _callback = surface.frame(&handle, ());
            app.frame_done = false;
            surface.commit();
            // The app's loop reads the socket (and so this source's events) until the
            // compositor's next repaint.
            while !app.frame_done {
                queue.blocking_dispatch(&mut app).expect("repainted");
            }
            // As on X11: the HUD polls inside a busy frame, not right after a sleep.
            let until = Instant::now() + Duration::from_millis(2);
            while Instant::now() < until {
                std::hint::spin_loop();
            }
            let poll = WaylandCosts::reads(sequence).then(|| {
                let mut read = 0;
                let start = Instant::now();
                source.poll(|_| read += 1).expect("reads");
                (start.elapsed(), read)
            });
            costs.add(sequence, request, poll);
        }
        costs.report();
        let _ = child.kill();
        let _ = child.wait();
        let _ = std::fs::remove_dir_all(&runtime_dir);
    }
}

fn main() {
    #[cfg(all(unix, not(target_vendor = "apple"), not(target_os = "android")))]
    {
        linux::x11();
        linux::wayland();
    }
}
