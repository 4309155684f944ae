"""The R package's way into the engine, one module a job (R reaches each through
`engine_module(NAME)` in R/python.R; R's `bridge()` starts the engine and returns `session`):

* `handoff`: R's memory hand-off (Arrow arrays over R's vectors in, `r_array` out), `Held`,
  `plain`, the progress hook, the host-memory check of a result R is about to allocate;
* `graphs`: graphs from R's Arrow columns, Arrow tables and files; what R keeps of a graph;
* `session`: the R session's engine (this process or a Dask cluster) and what the last call
  ran on (cuRnet_info());
* one adapter module a domain: `traversals` (BFS, SSSP, SCC), `paths` (shortest paths,
  proximity), `measures`, `betweenness` (and Girvan-Newman), `pcsf`, `coexpression`,
  `communities` (Leiden, Louvain), `modules` (WGCNA's modules, hclust), `propagation`;
  `messages` relays the engine's warnings to R.

Results go back to R one way: into memory R allocated. R allocates every vector and matrix of
numbers and passes its address (R's data_address()); `handoff.r_array` wraps it and refuses a
size other than the one R allocated before writing. A result whose sizes R learns only after
the run is a `handoff.Held`, an object R holds (no module keeps it): R reads its sizes,
allocates, and has it write each array into R's vector (R/handoff.R's held_result()). What is
not an array of numbers (scalars, strings, names, messages) comes with it as plain Python
values. No adapter keeps a result for a later call; the one state here is the session's.

The adapters convert only; the analyses live in the engine's own modules. Vertex and edge ids
are 0-based here, as everywhere in the engine; R converts."""
