//! `on_worker`: the provers' entry points start themselves on a worker of rayon's pool, so a
//! caller needs no setup for their parallel loops.

use flockwork_core::on_worker;

#[test]
fn work_from_outside_the_pool_runs_on_a_worker_of_the_global_pool() {
    assert_eq!(rayon::current_thread_index(), None, "the test thread");
    let (index, threads) =
        on_worker(|| (rayon::current_thread_index(), rayon::current_num_threads()));
    assert!(index.is_some(), "the closure ran on the caller's thread");
    assert_eq!(threads, rayon::current_num_threads());
}

#[test]
fn work_inside_an_installed_pool_stays_in_that_pool_and_on_its_thread() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("pool");
    pool.install(|| {
        let caller = std::thread::current().id();
        let (thread, threads) =
            on_worker(|| (std::thread::current().id(), rayon::current_num_threads()));
        assert_eq!(thread, caller, "a worker runs the closure in place");
        assert_eq!(threads, 1, "the installed pool, not the global one");
    });
}

#[test]
fn the_result_and_borrowed_data_come_back() {
    let data: Vec<u64> = (0..1000).collect();
    let sum = on_worker(|| data.iter().sum::<u64>());
    assert_eq!(sum, 499_500);
}
