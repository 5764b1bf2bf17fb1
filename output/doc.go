// Package output writes consensus results: the per-object distributions in
// the tabular form Crowd-Kit users know (task, label, then one probability
// column per class), the fitted worker parameters, and files that appear
// atomically, complete or not at all.
//
// Tables are written as CSV, TSV, JSON Lines or Parquet with the same
// columns in every format: "task", "label" and "p_<class>" for the
// consensus, "worker", "labels", "skill" (model.Result.WorkerSkills) and
// the parameter names for the workers,
// and "task", "worker", "label" for noisy labels. Probabilities are written
// so that they read back bit for bit. WriteConsensusFile and
// WriteLabelsFile (and WriteFiles with the Files of ConsensusFile,
// WorkersFile and LabelsFile) choose the format from the file name (.csv,
// .tsv, .jsonl, .parquet, optionally .gz) and write atomically:
//
//	res, err := model.Model{Noise: noise.DS{}, Latent: latent.DA{}}.Fit(ctx, d, nil)
//	if err != nil {
//		log.Fatal(err)
//	}
//	err = output.WriteConsensusFile("consensus.parquet", "", res, 1) // pandas: pd.read_parquet
//
// ReadConsensus and LoadConsensus read any of these consensus tables back,
// for evaluation, and ReadWorkers and LoadWorkers any workers table, to
// start a fit from it; both read with dataio.ReadTable, so every problem is a
// *dataio.InputError naming the file and the line.
package output
