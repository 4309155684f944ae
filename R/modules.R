# WGCNA's module detection by the engine (python/curnet/coexpression/modules/): TOM and its
# average-linkage dendrogram on the GPU, dynamicTreeCut::cutreeHybrid in R, eigengenes,
# kME checks and the merging of close modules in the engine.

# WGCNA's arguments that cuRnet_blockwiseModules accepts only at their defaults, with them.
modules_fixed_arguments <- list(
  weights = NULL, checkMissingData = TRUE, blockSizePenaltyPower = 5, loadTOM = FALSE, quickCor = 0,
  pearsonFallback = "individual", cosineCorrelation = FALSE, replaceMissingAdjacencies = FALSE,
  suppressTOMForZeroAdjacencies = FALSE, suppressNegativeTOM = FALSE, getTOMs = NULL, saveTOMs = FALSE,
  useBranchEigennodeDissim = FALSE, stabilityLabels = NULL, impute = TRUE, trapErrors = FALSE,
  useCorOptionsThroughout = TRUE)
# ... and those that change no result.
modules_ignored_arguments <- c("nPreclusteringCenters", "saveTOMFileBase", "minBranchEigennodeDissim",
                               "stabilityCriterion", "minStabilityDissim", "nThreads",
                               "useInternalMatrixAlgebra", "indent")

# WGCNA's standardColors(): its 34 colours, then R's other named colours without grey, gray
# and black in the order WGCNA draws them (rank(sin(13 i + sin(13 i)))).
wgcna_standard_colors <- function() {
  base <- c("turquoise", "blue", "brown", "yellow", "green", "red", "black", "pink", "magenta", "purple",
            "greenyellow", "tan", "salmon", "cyan", "midnightblue", "lightcyan", "grey60", "lightgreen",
            "lightyellow", "royalblue", "darkred", "darkgreen", "darkturquoise", "darkgrey", "orange",
            "darkorange", "white", "skyblue", "saddlebrown", "steelblue", "paleturquoise", "violet",
            "darkolivegreen", "darkmagenta")
  r <- grDevices::colors()
  r <- r[-grep("grey", r)]
  r <- r[-grep("gray", r)]
  r <- r[-grep("black", r)]
  inbase <- match(base, r)
  extra <- r[-inbase[!is.na(inbase)]]
  i <- seq_along(extra)
  c(base, extra[rank(sin(13 * i + sin(13 * i)))])
}

#' WGCNA's blockwiseModules with the TOM and its clustering on the GPU
#'
#' A drop-in for \code{WGCNA::blockwiseModules}: the same steps, arguments, defaults and
#' result. The TOM of each block is computed on the GPU (as
#' \code{\link{cuRnet_TOMsimilarityFromExpr}}), 1 - TOM is clustered there by average
#' linkage (\code{\link{cuRnet_hclust}}: fastcluster's tree) without leaving the device,
#' \code{dynamicTreeCut::cutreeHybrid} cuts the dendrogram (with the arguments WGCNA's
#' \code{cutreeDynamic} gives it), and the engine computes module eigengenes (first
#' principal component, signed to agree with the module's average expression), WGCNA's kME
#' checks and reassignment, and \code{mergeCloseModules}.
#'
#' Blocks: by default one block as large as the device's memory holds (three n x n double
#' matrices: about 36,000 genes on a GPU of 32 GB free, 70,000 on an H200), where WGCNA's
#' default \code{maxBlockSize} is 5000. Only above that (or above a \code{maxBlockSize} you
#' give) are genes split: k-means by correlation (centres: random genes, then their members'
#' mean, ten rounds), the clusters packed largest first into blocks of at most
#' \code{maxBlockSize}. WGCNA's projective k-means forms blocks otherwise, so several blocks
#' give other approximate modules; one block gives WGCNA's one-block answer.
#'
#' Input: \code{datExpr} is samples x genes, as in WGCNA; a matrix with far more rows than
#' columns (at least 5 times, 100 rows or more) gets a warning that it looks transposed.
#' Genes with too many missing values or zero variance, and samples with too many missing
#' genes, are left out as WGCNA's \code{goodSamplesGenes} does (grey, \code{NA} eigengene
#' rows). Missing values left after that are an error (WGCNA imputes them with
#' \code{impute.knn}; impute them first).
#'
#' WGCNA's arguments \code{weights}, \code{loadTOM}, \code{quickCor}, \code{pearsonFallback},
#' \code{cosineCorrelation}, \code{replaceMissingAdjacencies},
#' \code{suppressTOMForZeroAdjacencies}, \code{suppressNegativeTOM}, \code{getTOMs},
#' \code{saveTOMs}, \code{useBranchEigennodeDissim}, \code{stabilityLabels}, \code{impute},
#' \code{trapErrors}, \code{checkMissingData}, \code{blockSizePenaltyPower} and
#' \code{useCorOptionsThroughout} are accepted at their defaults only; \code{nThreads},
#' \code{indent}, \code{nPreclusteringCenters}, \code{saveTOMFileBase},
#' \code{useInternalMatrixAlgebra}, \code{minBranchEigennodeDissim},
#' \code{stabilityCriterion} and \code{minStabilityDissim} change nothing. Any other
#' argument is an error that names it.
#'
#' @param datExpr Expression data, samples x genes (matrix or data frame).
#' @param power,networkType,TOMType,TOMDenom,corType,maxPOutliers As in WGCNA (soft power
#'   1 to 30; \code{corType} \code{"pearson"} or \code{"bicor"}).
#' @param maxBlockSize The most genes a block holds (\code{NULL}: as many as the device's
#'   memory holds).
#' @param blocks Optional block number of each gene.
#' @param randomSeed Seed of the pre-clustering into blocks.
# WGCNA's argument names, listed on one line as roxygen requires (lintr left out)
# nolint start
#' @param deepSplit,detectCutHeight,minModuleSize,maxCoreScatter,minGap,maxAbsCoreScatter,minAbsGap,minSplitHeight,minAbsSplitHeight,pamStage,pamRespectsDendro
# nolint end
#'   The Dynamic Tree Cut's settings, as in WGCNA.
#' @param reassignThreshold,minCoreKME,minCoreKMESize,minKMEtoStay,mergeCutHeight As in WGCNA.
#' @param numericLabels \code{TRUE}: modules numbered (0 unassigned) instead of coloured.
#' @param verbose 0 (silent) or more: progress messages.
#' @param ... WGCNA's other arguments (see Details).
#' @param backend \code{"auto"}, \code{"cpu"}, \code{"cuda"} or \code{"cuda:N"}.
#' @return WGCNA's list: \code{colors}, \code{unmergedColors}, \code{MEs} (a data frame,
#'   samples x modules), \code{goodSamples}, \code{goodGenes}, \code{dendrograms} (one
#'   \code{hclust} a block), \code{TOMFiles} (\code{NULL}), \code{blockGenes}, \code{blocks}
#'   and \code{MEsOK}.
#' @examples
#' if (cuRnet_available() && requireNamespace("dynamicTreeCut", quietly = TRUE)) {
#'   set.seed(1)
#'   hub <- matrix(rnorm(40 * 3), 40, 3)
#'   x <- hub[, rep(1:3, each = 40)] + matrix(rnorm(40 * 120, sd = 0.8), 40, 120)
#'   net <- cuRnet_blockwiseModules(x, minModuleSize = 10)
#'   table(net$colors)
#' }
#' @export
cuRnet_blockwiseModules <- function(datExpr, power = 6, networkType = "unsigned", TOMType = "signed",
                                    TOMDenom = "min", corType = "pearson", maxPOutliers = 1,
                                    maxBlockSize = NULL, blocks = NULL, randomSeed = 54321,
                                    deepSplit = 2, detectCutHeight = 0.995,
                                    minModuleSize = min(20, ncol(datExpr) / 2),
                                    maxCoreScatter = NULL, minGap = NULL, maxAbsCoreScatter = NULL,
                                    minAbsGap = NULL, minSplitHeight = NULL, minAbsSplitHeight = NULL,
                                    pamStage = TRUE, pamRespectsDendro = TRUE, reassignThreshold = 1e-6,
                                    minCoreKME = 0.5, minCoreKMESize = minModuleSize / 3,
                                    minKMEtoStay = 0.3, mergeCutHeight = 0.15, numericLabels = FALSE,
                                    verbose = 0, ..., backend = "auto") {
  extra <- list(...)
  if (length(extra) && (is.null(names(extra)) || any(!nzchar(names(extra))))) {
    stop("cuRnet_blockwiseModules takes its arguments by name after datExpr", call. = FALSE)
  }
  unknown <- setdiff(names(extra), c(names(modules_fixed_arguments), modules_ignored_arguments))
  if (length(unknown)) {
    stop(sprintf("unknown argument(s) to cuRnet_blockwiseModules: %s", paste(unknown, collapse = ", ")),
         call. = FALSE)
  }
  for (name in intersect(names(extra), names(modules_fixed_arguments))) {
    if (!identical(extra[[name]], modules_fixed_arguments[[name]])) {
      stop(sprintf("cuRnet_blockwiseModules supports only %s = %s (WGCNA's default)", name,
                   deparse(modules_fixed_arguments[[name]])), call. = FALSE)
    }
  }
  if (!requireNamespace("dynamicTreeCut", quietly = TRUE)) {
    stop("cuRnet_blockwiseModules needs the dynamicTreeCut package (install.packages(\"dynamicTreeCut\"))",
         call. = FALSE)
  }
  if (is.data.frame(datExpr)) {
    bad <- names(datExpr)[!vapply(datExpr, is.numeric, logical(1))]
    if (length(bad)) {
      stop("datExpr must hold numbers only; non-numeric column(s): ", paste(utils::head(bad, 5), collapse = ", "),
           call. = FALSE)
    }
  }
  x <- as.matrix(datExpr)
  if (!is.numeric(x) || length(dim(x)) != 2) stop("datExpr must be a numeric matrix or data frame", call. = FALSE)
  if (nrow(x) >= 100 && nrow(x) >= 5 * ncol(x)) {
    warning(sprintf(paste("datExpr has %d rows (samples) and %d columns (genes): it looks transposed.",
                          "WGCNA's datExpr is samples x genes; give t(datExpr) if genes are rows"),
                    nrow(x), ncol(x)), call. = FALSE)
  }
  if (any(is.infinite(x))) stop("datExpr holds infinite values", call. = FALSE)
  if (!is.numeric(power) || length(power) != 1 || is.na(power) || power < 1 || power > 30) {
    stop("power must be a number between 1 and 30", call. = FALSE)
  }
  if (!deepSplit %in% 0:4) stop("deepSplit must be 0, 1, 2, 3 or 4", call. = FALSE)
  if (!is.null(blocks) && length(blocks) != ncol(x)) {
    stop(sprintf("blocks has %d entries for %d genes (columns of datExpr)", length(blocks), ncol(x)), call. = FALSE)
  }
  sample_names <- rownames(x)
  if (is.null(sample_names)) sample_names <- paste0("Row.", seq_len(nrow(x)))
  gene_names <- colnames(x)
  if (is.null(gene_names)) gene_names <- paste0("Column.", seq_len(ncol(x)))
  say <- function(...) if (verbose > 0) message(...)

  engine <- engine_module("modules")
  run <- engine_call(engine$modules_start(
    as_arrow(as.double(x)), nrow(x), ncol(x), backend = backend,
    blocks = if (is.null(blocks)) NULL else as_arrow(as.double(blocks)),
    color_seq = if (isTRUE(numericLabels)) NULL else as.list(wgcna_standard_colors()),
    power = as.numeric(power), network_type = networkType, tom_type = TOMType, tom_denom = TOMDenom,
    cor_type = corType, max_p_outliers = as.numeric(maxPOutliers),
    max_block_size = if (is.null(maxBlockSize)) NULL else as.numeric(maxBlockSize),
    min_module_size = as.numeric(minModuleSize), min_core_kme = as.numeric(minCoreKME),
    min_core_kme_size = as.numeric(minCoreKMESize), min_kme_to_stay = as.numeric(minKMEtoStay),
    reassign_threshold = as.numeric(reassignThreshold), merge_cut_height = as.numeric(mergeCutHeight),
    numeric_labels = isTRUE(numericLabels), random_seed = as.integer(randomSeed)))
  start <- reticulate::py_to_r(engine_call(engine$modules_layout(run)))
  sizes <- unlist(start$sizes)
  dendrograms <- vector("list", length(sizes))
  for (b in seq_along(sizes)) {
    say(sprintf(" ..working on block %d (%d genes)", b, sizes[b]))
    engine_call(bridge()$check_result_fits(sizes[b], sizes[b], 8L))
    diss <- new_result("double", sizes[b], sizes[b])
    tree <- engine_call(held_result(engine$modules_block_into(run, b - 1L, data_address(diss))))
    dendrograms[[b]] <- structure(list(merge = matrix(tree$merge, ncol = 2),
                                       height = tree$height,
                                       order = tree$order, labels = NULL,
                                       method = "average", call = match.call(), dist.method = NULL),
                                  class = "hclust")
    say(" ....detecting modules")
    labels <- dynamicTreeCut::cutreeHybrid(
      dendro = dendrograms[[b]], distM = diss, cutHeight = detectCutHeight,
      minClusterSize = start$min_module_size, deepSplit = deepSplit, maxCoreScatter = maxCoreScatter,
      minGap = minGap, maxAbsCoreScatter = maxAbsCoreScatter, minAbsGap = minAbsGap,
      minSplitHeight = minSplitHeight, minAbsSplitHeight = minAbsSplitHeight, pamStage = pamStage,
      pamRespectsDendro = pamRespectsDendro, useMedoids = FALSE, maxPamDist = detectCutHeight,
      respectSmallClusters = TRUE, verbose = 0)$labels
    rm(diss)
    engine_call(engine$modules_block_labels(run, b - 1L, as_arrow(as.double(labels))))
  }
  say(" ..merging modules that are too close")
  r <- engine_call(held_result(engine$modules_finish(run)))
  label_vector <- function(v) {
    v <- unlist(v)
    if (isTRUE(numericLabels)) as.numeric(v) else as.character(v)
  }
  colors <- stats::setNames(label_vector(r$colors), gene_names)
  unmerged <- stats::setNames(label_vector(r$unmergedColors), gene_names)
  me_names <- as.character(unlist(r$ME_names))
  mes <- matrix(r$MEs, nrow = nrow(x), ncol = length(me_names))
  mes[is.nan(mes)] <- NA
  mes <- as.data.frame(mes)
  names(mes) <- me_names
  rownames(mes) <- make.unique(sample_names)
  block_of <- r$blocks
  block_of[is.nan(block_of)] <- NA
  list(colors = colors, unmergedColors = unmerged, MEs = mes,
       goodSamples = as.logical(r$goodSamples), goodGenes = as.logical(r$goodGenes),
       dendrograms = dendrograms, TOMFiles = NULL,
       blockGenes = lapply(r$blockGenes, function(g) as.integer(unlist(g))),
       blocks = if (is.null(blocks)) block_of else blocks, MEsOK = TRUE)
}
