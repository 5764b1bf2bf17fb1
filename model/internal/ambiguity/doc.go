// Package ambiguity computes the posterior of a task's true class when the
// task may be ambiguous around it: its label distribution q_j lies near the
// vertex of its true class z_j, but may have wandered towards another
// class, and every label's subjective class is drawn from q_j before the
// worker's noise corrupts it. Independent workers under one true class
// (LA) are the limit of no ambiguity.
//
// The model is the two-class reduction of q_j ~ Dirichlet(s·e_c + a·K·β)
// for z_j = c, with β a base measure (the default passes the classes'
// shares of the labels): q_j = (1 − λ)·e_c + λ·e_d with the distractor
// class d drawn from the other K − 1 classes in proportion to β, w_c(d) =
// β_d / (1 − β_c), and λ ~ Beta(u, v). At K = 2 it is that Dirichlet
// exactly (u = a·K·β_d, v = s + a·K·β_c); at K > 2 it is its limit for
// small a, where the mass off the vertex falls on one other class, chosen
// as the base measure chooses it: a task does not wander towards a class
// that hardly any label names. The marginal likelihood of the
// labels given z_j = c is then, with P_i(x) the probability of label i
// from its worker when its subjective class is x,
//
//	ML_c = Σ_{d≠c} w_c(d) ∫ Beta(λ; u, v) Π_i ((1−λ)·P_i(c) + λ·P_i(d)) dλ
//	     = Σ_{d≠c} w_c(d) Σ_m ẽ_m(c, d) · BB_n(m; u, v),
//
// where ẽ_m(c, d) is the mean over the m-subsets S of the n labels of
// Π_{i∈S} P_i(d) Π_{i∉S} P_i(c), and BB_n(m; u, v) the beta-binomial
// probability of m. The ẽ of a pair of classes are one recursion over the
// labels (O(n²)), shared by both orders of the pair (ẽ_m(d, c) =
// ẽ_{n−m}(c, d)); the hyperparameters then only change the weights BB.
package ambiguity
